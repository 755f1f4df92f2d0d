import Foundation
import GRDB
import HeraldCore

/// How the recipients of one bulk stand, counted for a notice: how many there are, how many failed, how many can
/// still change.
public struct BulkTally: Sendable, Hashable {
    public var bulkId: String
    public var recipients: Int
    /// Recipients that reached the person or their network.
    public var invited: Int
    /// Recipients that will never arrive (DeliveryImpossible, rejected, send failed).
    public var failed: Int
    /// Recipients taken back before they left.
    public var cancelled: Int
    /// Recipients whose status can still change (an email its mail server took counts as settled).
    public var open: Int
    /// Whether delivery polling still asks about it: false once its passes are spent (the tracker gave up on what is
    /// left open, an SMS stuck at the network).
    public var polled: Bool

    public init(bulkId: String, recipients: Int, invited: Int, failed: Int, cancelled: Int, open: Int, polled: Bool = true) {
        self.polled = polled
        self.bulkId = bulkId
        self.recipients = recipients
        self.invited = invited
        self.failed = failed
        self.cancelled = cancelled
        self.open = open
    }
}

extension LedgerStore {
    /// The tally of each bulk named (one grouped query over the bulk index); a bulk with no recipients is left out.
    public func tallies(ofBulks bulkIds: Set<String>) throws -> [String: BulkTally] {
        guard !bulkIds.isEmpty else { return [:] }
        func list(_ test: (DeliveryStatus) -> Bool) -> String {
            DeliveryStatus.allCases.filter(test).map { "'\($0.rawValue)'" }.joined(separator: ",")
        }
        let invited = list(\.isInvited), failed = list(\.isImpossible), finals = list(\.isFinal)
        let network = DeliveryStatus.deliveredToNetwork.rawValue, cancelled = DeliveryStatus.cancelled.rawValue
        let ids = Array(bulkIds)
        return try database.read { db in
            var out: [String: BulkTally] = [:]
            // SQLite allows 32,766 variables; a batch of changes names far fewer bulks, but stay well under it.
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                let rows = try Row.fetchAll(db, sql: """
                    SELECT bulk_id, COUNT(*),
                           SUM(CASE WHEN status IN (\(invited)) THEN 1 ELSE 0 END),
                           SUM(CASE WHEN status IN (\(failed)) THEN 1 ELSE 0 END),
                           SUM(CASE WHEN status = '\(cancelled)' THEN 1 ELSE 0 END),
                           SUM(CASE WHEN status IN (\(finals)) OR (status = '\(network)' AND instr(msisdn, '@') > 0)
                                    THEN 0 ELSE 1 END)
                    FROM invitation WHERE bulk_id IN (\(marks)) GROUP BY bulk_id
                    """, arguments: StatementArguments(chunk))
                // A bulk whose passes are spent has had one and has no next one (as the tracker reads it).
                let spent = Set(try String.fetchAll(db, sql: """
                    SELECT bulk_id FROM bulk WHERE bulk_id IN (\(marks)) AND passes_done > 0 AND next_poll_ms IS NULL
                    """, arguments: StatementArguments(chunk)))
                for row in rows {
                    let id: String = row[0]
                    out[id] = BulkTally(bulkId: id, recipients: row[1], invited: row[2], failed: row[3], cancelled: row[4], open: row[5],
                                        polled: !spent.contains(id))
                }
            }
            return out
        }
    }
}
