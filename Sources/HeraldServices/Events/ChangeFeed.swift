import Foundation
import HeraldLocks
import HeraldCore
import HeraldStore
import Logging

/// The one source of "what changed in the local store": it follows the ledger's change sequence and
/// the contacts' generation (both moved by any process writing the data folder) and publishes
/// `.ledgerChanged` and `.contactsChanged` on the bus. The tracker, `herald watch` and the panes
/// read it instead of rescanning the ledger.
///
/// A check reads two integers; only when they moved does it read the changed rows (an index range).
/// It remembers the status and bulk of the rows that can still change, so each batch says where a
/// recipient came from (`from`), and a screen can fold it into what it shows without a query.
public actor ChangeFeed {
    private let ledger: LedgerStore
    private let bus: EventBus
    private let log = Logger(label: "herald.feed")
    private var lastFailure: String?
    /// How often `run()` checks.
    public let interval: TimeInterval
    /// The ledger sequence the feed has published up to.
    public private(set) var sequence: Int64 = 0
    private var contactsGeneration: Int64 = 0
    private var open: [Int64: OpenRows.Row] = [:]
    private var maxSeenId: Int64 = 0
    private var started = false

    public init(ledger: LedgerStore, bus: EventBus, interval: TimeInterval = 0.5) {
        self.ledger = ledger
        self.bus = bus
        self.interval = interval
    }

    /// Takes the store as it is now: nothing already there is published. Called by the first check.
    public func start() throws {
        guard !started else { return }
        let rows = try ledger.openRows()
        let version = try ledger.version()
        open = rows.rows
        maxSeenId = rows.maxInvitationId
        sequence = rows.sequence
        contactsGeneration = version.contacts
        started = true
    }

    /// Publishes what changed since the last check; returns the ledger batch (nil when the ledger
    /// did not move). Throws when the store cannot be read (the next check tries again).
    @discardableResult
    public func check() throws -> LedgerChange? {
        try start()
        let version = try ledger.version()
        var change: LedgerChange?
        if version.ledger != sequence {
            change = try readLedger()
            if let change { bus.publish(.ledgerChanged(change)) }
        }
        if version.contacts != contactsGeneration {
            contactsGeneration = version.contacts
            bus.publish(.contactsChanged(generation: version.contacts))
        }
        return change
    }

    private func readLedger() throws -> LedgerChange? {
        let previous = sequence
        var deliveries: [DeliveryChange] = []
        var bulks: [BulkRecord] = []
        var delta: LedgerDelta
        repeat {
            delta = try ledger.changes(since: sequence)
            for row in delta.invitations {
                guard let id = row.id else { continue }
                let known = open[id]
                let wasFinalBefore = known == nil && id <= maxSeenId
                maxSeenId = max(maxSeenId, id)
                if row.status.isFinal { open.removeValue(forKey: id) } else {
                    open[id] = OpenRows.Row(status: row.status, bulkId: row.bulkId)
                }
                // A row final before (say its person was deleted) changed nothing a screen counts.
                if wasFinalBefore && row.status.isFinal { continue }
                guard let bulkId = row.bulkId else { continue }        // queued, in no bulk yet
                let from = known?.bulkId == bulkId ? known?.status : nil
                guard from != row.status else { continue }
                deliveries.append(DeliveryChange(bulkId: bulkId, invitationId: id, address: String(row.msisdn.drop { $0 == "+" }),
                                                 messageId: row.messageId, personId: row.personId, from: from,
                                                 to: row.status, at: row.updatedAt))
            }
            bulks += delta.bulks
            sequence = delta.sequence
        } while delta.hasMore
        guard sequence != previous else { return nil }
        return LedgerChange(previous: previous, sequence: sequence, deliveries: deliveries, bulks: bulks)
    }

    /// Checks until cancelled: whenever a file of the database is written (inotify on the data
    /// folder: any process's commit), and every `fallbackInterval` in case a write was not seen;
    /// every `interval` where the folder cannot be watched. A failed read is retried at the next check.
    public func run(fallbackInterval: TimeInterval = 5) async {
        let wake = WakeSignal()
        let watch = FolderWatch.start(folder: ledger.database.folder, prefix: "herald.sqlite") { _ in wake.signal() }
        defer { watch?.stop() }
        while !Task.isCancelled {
            do {
                try check()
                lastFailure = nil
            } catch {
                let text = "\(error)"
                if text != lastFailure { log.warning("could not read the store's changes", metadata: ["error": "\(text)"]) }
                lastFailure = text
            }
            if await wake.wait(upTo: watch == nil ? interval : fallbackInterval) {
                // A commit writes the log more than once: gather a burst into one check.
                try? await Task.sleep(nanoseconds: 15_000_000)
                _ = await wake.wait(upTo: 0)
            }
        }
    }
}
