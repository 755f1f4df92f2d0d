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

    /// Takes the ledger as it is now; nothing already there is reported. A bulk whose rows cannot be
    /// read now is left for the next read (it then counts as new).
    init(ledger: LedgerStore) {
        self.ledger = ledger
        let all = ((try? ledger.bulks()) ?? []).map(\.bulkId)
        let toRead: [String]
        if let pending = try? ledger.bulksWithPendingRecipients().map(\.bulkId) {
            // Bulks already final cannot change: known without reading their rows.
            knownBulks = Set(all).subtracting(pending)
            toRead = pending
        } else {
            toRead = all
        }
        for bulkId in toRead {
            guard let rows = try? ledger.recipients(ofBulk: bulkId) else { continue }
            knownBulks.insert(bulkId)
            if rows.contains(where: { !$0.status.isFinal }) { open.insert(bulkId) }
            for row in rows { if let id = row.id { statuses[id] = row.status } }
        }
    }

    /// Reads the ledger again; answers the changes since the last read, oldest first.
    func poll() -> [Change] {
        var toRead = open
        for bulk in (try? ledger.bulks(limit: Self.newestWindow)) ?? [] where !knownBulks.contains(bulk.bulkId) {
            toRead.insert(bulk.bulkId)
        }
        for bulk in (try? ledger.bulksWithPendingRecipients()) ?? [] where !knownBulks.contains(bulk.bulkId) {
            toRead.insert(bulk.bulkId)
        }
        var changes: [Change] = []
        for bulkId in toRead.sorted() {
            guard let rows = try? ledger.recipients(ofBulk: bulkId) else { continue }  // read again next time
            knownBulks.insert(bulkId)
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
