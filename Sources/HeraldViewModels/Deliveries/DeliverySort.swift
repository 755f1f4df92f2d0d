import HeraldCore

/// The orders of the Deliveries pane (`s` cycles them): bulks newest or oldest first, or those with the most
/// failed or pending recipients first; a bulk's recipients follow the same idea (failed or pending first).
nonisolated public enum DeliverySort: String, Sendable, Hashable, CaseIterable {
    case newest
    case oldest
    case mostFailed = "most failed"
    case mostPending = "most pending"

    /// The order's name in `:sort` ("most-failed").
    public var name: String { rawValue.replacingOccurrences(of: " ", with: "-") }

    /// The order `:sort` names, nil for none.
    public init?(name: String) {
        guard let order = Self.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = order
    }

    public var next: DeliverySort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Bulks in this order; ties newest first, then by id, so the order is stable.
    public func ordered(_ bulks: [BulkSummary]) -> [BulkSummary] {
        func newestFirst(_ a: BulkSummary, _ b: BulkSummary) -> Bool {
            a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.bulkId < b.bulkId
        }
        switch self {
        case .newest: return bulks.sorted(by: newestFirst)
        case .oldest: return bulks.sorted { !newestFirst($0, $1) }
        case .mostFailed: return bulks.sorted { $0.impossible != $1.impossible ? $0.impossible > $1.impossible : newestFirst($0, $1) }
        case .mostPending: return bulks.sorted { $0.pending != $1.pending ? $0.pending > $1.pending : newestFirst($0, $1) }
        }
    }

    /// A bulk's recipients in this order (their own order kept within a group).
    public func ordered(_ rows: [RecipientRow]) -> [RecipientRow] {
        let rank: (RecipientRow) -> Int
        switch self {
        case .newest, .oldest: return rows
        case .mostFailed: rank = { $0.status.isImpossible ? 0 : 1 }
        case .mostPending: rank = { $0.status.isPending ? 0 : 1 }
        }
        return rows.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }
}
