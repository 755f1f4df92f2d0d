import Foundation
import HeraldCore
import HeraldStore

/// One recipient of a bulk with the name of the person behind the number, when known.
public struct BulkRecipient: Sendable, Hashable {
    public let invitation: InvitationInfo
    /// The person's display name, nil for a number typed as text or a deleted person.
    public let name: String?
}

extension ContactBook {
    /// Every bulk with its recipients counted per status, and the change sequence they stand at:
    /// what the Deliveries pane starts from (one grouped query).
    public func deliveriesSnapshot() async throws -> BulkCountsSnapshot { try ledger.bulkCounts() }

    /// One bulk's record, nil when unknown.
    public func bulk(id: String) async throws -> BulkRecord? { try ledger.bulk(id: id) }

    /// The recipients of one bulk with their names, in the order they were queued.
    public func recipients(ofBulk bulkId: String) async throws -> [BulkRecipient] {
        let rows = try ledger.recipients(ofBulk: bulkId)
        let ids = Array(Set(rows.compactMap(\.personId)))
        var names: [Int64: String] = [:]
        for person in try contacts.people(ids: ids) {
            if let id = person.id { names[id] = person.displayName }
        }
        return rows.map { BulkRecipient(invitation: $0, name: $0.personId.flatMap { names[$0] }) }
    }
}
