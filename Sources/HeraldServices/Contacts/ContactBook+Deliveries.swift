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
    /// Bulks of the ledger, newest first, with the latest status of each recipient.
    public func bulks(limit: Int? = 200) throws -> [(bulk: BulkRecord, statuses: [DeliveryStatus])] {
        try ledger.bulks(limit: limit).map { bulk in
            (bulk, try ledger.recipients(ofBulk: bulk.bulkId).map(\.status))
        }
    }

    /// One bulk's record, nil when unknown.
    public func bulk(id: String) throws -> BulkRecord? { try ledger.bulk(id: id) }

    /// The recipients of one bulk with their names, in the order they were queued.
    public func recipients(ofBulk bulkId: String) throws -> [BulkRecipient] {
        let rows = try ledger.recipients(ofBulk: bulkId)
        let ids = Array(Set(rows.compactMap(\.personId)))
        var names: [Int64: String] = [:]
        for person in try contacts.people(ids: ids) {
            if let id = person.id { names[id] = person.displayName }
        }
        return rows.map { BulkRecipient(invitation: $0, name: $0.personId.flatMap { names[$0] }) }
    }
}
