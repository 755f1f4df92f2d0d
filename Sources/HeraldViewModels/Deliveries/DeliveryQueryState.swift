import Foundation
import HeraldCore
import HeraldServices

/// Deliveries' `/` query as it stands: the text typed, why it cannot be read (the last answer stays shown), what it
/// matched (the bulks with a matching recipient, and how many), and which recipients of the open bulk match.
nonisolated public struct DeliveryQueryState: Sendable, Equatable {
    /// The query as typed ("" for none: every bulk and recipient shows).
    public internal(set) var text = ""
    /// Why `text` cannot be read, with what to write instead.
    public internal(set) var error: String?
    /// What the query cannot do, said beside the answer (`network:` matches nothing).
    public internal(set) var notes: [String] = []
    /// What the query matched, per bulk; nil for no query (or before the first answer).
    public internal(set) var matches: DeliveryMatches?
    /// The open bulk's recipients that match, by invitation id; nil while they are being read (or no query).
    public internal(set) var recipientIds: Set<Int64>?
    /// True while an answer is being read.
    public internal(set) var isReading = false

    public var isActive: Bool { !text.trimmingCharacters(in: .whitespaces).isEmpty }

    /// Matched recipients per bulk id.
    var matchedByBulk: [String: Int] {
        Dictionary(matches?.bulks.map { ($0.bulkId, $0.matched) } ?? [], uniquingKeysWith: { a, _ in a })
    }

    /// "37 recipients in 5 bulks" (or "reading…").
    public var summary: String {
        if let error { return error }
        guard let matches else { return isReading ? "reading…" : "" }
        return "\(counted(matches.total, "recipient")) in \(counted(matches.bulks.count, "bulk"))"
            + (notes.isEmpty ? "" : " · " + notes.joined(separator: " · "))
    }
}

/// The breakdown of what the query matches (`b`): per failure reason, country or sender ID, the count, the share,
/// first and last seen, and how much is final; `enter` opens a group's recipients, `r` resends what of it can be.
nonisolated public struct DeliveryBreakdownState: Sendable, Equatable {
    public internal(set) var isOpen = false
    public internal(set) var dimension: DeliveryDimension = .reason
    public internal(set) var breakdown: DeliveryBreakdown?
    public internal(set) var cursor = 0
    public internal(set) var isReading = false
    /// The group opened to its recipients (`enter`), with the first of them; nil for the groups.
    public internal(set) var openGroup: DeliveryBreakdownGroup?
    public internal(set) var groupRecipients: [DeliveryRecipient] = []
    public internal(set) var groupCursor = 0
    /// The recipient of the open group shown in detail.
    public internal(set) var detailId: Int64?

    /// How many of a group's recipients are read to show (the count says how many there are).
    public static let groupPage = 2_000

    public var groups: [DeliveryBreakdownGroup] { breakdown?.groups ?? [] }
    public var currentGroup: DeliveryBreakdownGroup? { groups.indices.contains(cursor) ? groups[cursor] : nil }
    public var currentRecipient: DeliveryRecipient? {
        groupRecipients.indices.contains(groupCursor) ? groupRecipients[groupCursor] : nil
    }
}

extension DeliveryDimension {
    /// The next dimension `d` switches to.
    public var next: DeliveryDimension {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The column head of the group ("Reason", "Country", "Sender ID").
    public var title: String {
        switch self {
        case .reason: return "Reason"
        case .country: return "Country"
        case .sender: return "Sender ID"
        }
    }
}
