import Foundation
import HeraldCore
import HeraldStore

/// Follows the ledger for `herald watch`: reports every recipient whose status differs from what it
/// saw last, whoever changed it — this process's tracker, or another Herald on the same data folder
/// (a `herald status --wait`, the terminal UI) that polled the platform first. Bulks that appear
/// while watching are reported too, their recipients coming from nothing (`from` is nil).
final class WatchLedgerFollower {
    /// One status change of one recipient, as the ledger shows it.
    struct Change {
        var bulkId: String
        var address: String
        var messageId: String?
        var personId: Int64?
        var from: DeliveryStatus?
        var to: DeliveryStatus
        var at: Date
    }

    private let ledger: LedgerStore
    /// Status of every recipient seen, by invitation id.
    private var statuses: [Int64: DeliveryStatus] = [:]
    /// Every bulk seen, and those that still had non-final recipients when last read.
    private var knownBulks: Set<String> = []
    private var open: Set<String> = []
    /// How many of the newest bulks each read looks at for new ones.
    static let newestWindow = 50

    /// Takes the ledger as it is now; nothing already there is reported.
    init(ledger: LedgerStore) {
        self.ledger = ledger
        knownBulks = Set(((try? ledger.bulks()) ?? []).map(\.bulkId))
        for bulk in (try? ledger.bulksWithPendingRecipients()) ?? [] {
            open.insert(bulk.bulkId)
            for row in (try? ledger.recipients(ofBulk: bulk.bulkId)) ?? [] {
                if let id = row.id { statuses[id] = row.status }
            }
        }
    }

    /// Reads the ledger again; answers the changes since the last read, oldest first.
    func poll() -> [Change] {
        var toRead = open
        for bulk in (try? ledger.bulks(limit: Self.newestWindow)) ?? [] where !knownBulks.contains(bulk.bulkId) {
            knownBulks.insert(bulk.bulkId)
            toRead.insert(bulk.bulkId)
        }
        for bulk in (try? ledger.bulksWithPendingRecipients()) ?? [] where !knownBulks.contains(bulk.bulkId) {
            knownBulks.insert(bulk.bulkId)
            toRead.insert(bulk.bulkId)
        }
        var changes: [Change] = []
        for bulkId in toRead.sorted() {
            guard let rows = try? ledger.recipients(ofBulk: bulkId) else { continue }
            var stillOpen = false
            for row in rows {
                guard let id = row.id else { continue }
                if !row.status.isFinal { stillOpen = true }
                let before = statuses[id]
                guard before != row.status else { continue }
                statuses[id] = row.status
                let address = row.msisdn.hasPrefix("+") ? row.msisdn : "+" + row.msisdn
                changes.append(Change(bulkId: bulkId, address: address, messageId: row.messageId, personId: row.personId,
                                      from: before, to: row.status, at: row.updatedAt))
            }
            if stillOpen { open.insert(bulkId) } else { open.remove(bulkId) }
        }
        return changes.sorted { $0.at < $1.at }
    }
}
