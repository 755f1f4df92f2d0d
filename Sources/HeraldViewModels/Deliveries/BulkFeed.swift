import Foundation
import HeraldCore
import HeraldServices

/// Where a `BulkFeed` reads: every bulk with its counts at a change sequence, and one bulk's recipients.
nonisolated public struct BulkSource: Sendable {
    public let snapshot: @Sendable () async throws -> BulkCountsSnapshot
    public let recipients: @Sendable (_ bulkId: String) async throws -> [RecipientRow]

    public init(snapshot: @escaping @Sendable () async throws -> BulkCountsSnapshot,
                recipients: @escaping @Sendable (_ bulkId: String) async throws -> [RecipientRow]) {
        self.snapshot = snapshot
        self.recipients = recipients
    }

    /// The address book's ledger (what the Deliveries pane reads).
    public init(book: ContactBook) {
        self.init(snapshot: { try await book.deliveriesSnapshot() },
                  recipients: { try await book.recipients(ofBulk: $0).map(RecipientRow.init) })
    }
}

/// Hears what a `BulkFeed` publishes (model: k9s's `TableListener`): the rows changed, or a read failed (the rows
/// read before stay).
public protocol BulkFeedListener: AnyObject {
    /// The bulks changed; `snapshot` when a whole snapshot came in (not a batch folded into the counts).
    func bulksChanged(snapshot: Bool)
    /// The followed bulk's recipients changed (read, folded, or dropped when the bulk was left).
    func recipientsChanged()
    /// Reading the bulks (`bulks`) or the followed bulk's recipients failed: the rows stay as they were.
    func loadFailed(_ error: any Error, recipients: Bool)
}

/// The Deliveries pane's data, apart from the screen (model: k9s `internal/model/table.go`): every bulk with its counts
/// per status, live as the change feed's batches arrive, the recipients of one followed bulk, the lights of the cells
/// that changed, and the tracker's schedule. The view-model keeps the cursor, filter, selection and questions.
///
/// The bulks come as one snapshot (one grouped query, off the UI thread) taken at a change sequence; from then on each
/// `.ledgerChanged` batch that continues that sequence is folded into the counts in memory. A batch that does not
/// continue it (one was missed) reads a fresh snapshot. A reload asked while one is being read is dropped, as k9s drops
/// an overlapping update. What it hands out (`bulks`, `recipients`) are values: a copy that later batches leave alone.
public final class BulkFeed {
    private let source: BulkSource
    private let effects: EffectQueue
    private let clock: any HeraldClock
    public weak var listener: (any BulkFeedListener)?
    /// How long a changed cell stays highlighted.
    public var highlightDuration: TimeInterval = 1.5

    public private(set) var bulks: [BulkSummary] = []
    /// The bulk whose recipients are read and kept live, nil for none.
    public private(set) var followed: String?
    public private(set) var recipients: [RecipientRow] = []
    /// True while the followed bulk's recipients are being read.
    public private(set) var isLoadingRecipients = false
    /// What went wrong reading the bulks, until a snapshot is read again.
    public private(set) var loadError: String?
    /// True until the first snapshot arrived.
    public private(set) var isLoading = true
    /// The change sequence the counts stand at (nil while a snapshot is being read).
    public private(set) var sequence: Int64?
    /// Batches that arrived while a snapshot was being read; folded once it is in.
    private var waiting: [LedgerChange] = []
    private var snapshotInFlight = false
    /// Fresh snapshots a batch that does not continue the counts may still ask for.
    private var resyncsLeft = 2
    /// Snapshots read so far (the first one and every resync), for tests and the benchmark.
    public private(set) var snapshotsRead = 0
    /// Lit cells: (bulkId or invitation id as text, column) → when the light goes out.
    public private(set) var highlights: [HighlightKey: Date] = [:]
    /// The tracker's schedule, as its last event told.
    public var tracker: TrackerState?

    /// A lit cell.
    public struct HighlightKey: Sendable, Hashable {
        public let row: String
        public let column: DeliveryColumn
        public init(_ row: String, _ column: DeliveryColumn) { self.row = row; self.column = column }
    }

    /// Reads nothing yet: `reload()` reads the first snapshot once a listener is there to hear it.
    public init(source: BulkSource, effects: EffectQueue, clock: any HeraldClock) {
        self.source = source
        self.effects = effects
        self.clock = clock
    }

    /// Reads every bulk again off the UI thread (first load, `ctrl-r`, or a missed batch); dropped while a read is
    /// under way.
    public func reload() {
        guard !snapshotInFlight else { return }
        snapshotInFlight = true
        sequence = nil
        effects.perform(source.snapshot, then: { [weak self] result in self?.receive(result) })
    }

    private func receive(_ result: Result<BulkCountsSnapshot, any Error>) {
        snapshotInFlight = false
        isLoading = false
        snapshotsRead += 1
        switch result {
        case .success(let snapshot):
            let fresh = snapshot.bulks.map(BulkSummary.init)
            if !bulks.isEmpty { lightChanges(from: bulks, to: fresh) }
            bulks = fresh
            sequence = snapshot.sequence
            loadError = nil
            listener?.bulksChanged(snapshot: true)
            let held = waiting
            waiting = []
            for change in held { fold(change) }
        case .failure(let error):
            loadError = "could not read the ledger: \(userMessage(for: error))"
            waiting = []
            listener?.loadFailed(error, recipients: false)
        }
    }

    /// Folds one batch of the change feed into the counts (and the followed bulk's recipients).
    public func fold(_ change: LedgerChange) {
        guard let sequence else { waiting.append(change); return }
        if change.sequence <= sequence { return }            // already in the snapshot
        guard change.previous == sequence else {
            // The batch starts before what this holds: read a fresh snapshot (which then stands at or
            // past the batch). A feed that never reaches it does not make the pane read forever.
            guard resyncsLeft > 0 else { return }
            resyncsLeft -= 1
            reload()
            return
        }
        resyncsLeft = 2
        let until = clock.now().addingTimeInterval(highlightDuration)
        var byId = Dictionary(uniqueKeysWithValues: bulks.enumerated().map { ($1.bulkId, $0) })
        var updated = bulks
        var inserted = false
        for record in change.bulks {
            if let at = byId[record.bulkId] {
                updated[at] = updated[at].with(record: record)
            } else {
                updated.insert(BulkSummary(BulkCounts(record: record, counts: [:])), at: 0)
                inserted = true
                byId = Dictionary(uniqueKeysWithValues: updated.enumerated().map { ($1.bulkId, $0) })
                highlights[HighlightKey(record.bulkId, .row)] = until
            }
        }
        var missing = false
        for delivery in change.deliveries {
            guard let at = byId[delivery.bulkId] else { missing = true; continue }
            let before = updated[at]
            let after = before.moving(from: delivery.from, to: delivery.to)
            updated[at] = after
            for column in DeliveryColumn.counted where before.count(column) != after.count(column) {
                highlights[HighlightKey(delivery.bulkId, column)] = until
            }
        }
        bulks = inserted ? updated.sorted { ($0.createdAt, $1.bulkId) > ($1.createdAt, $0.bulkId) } : updated
        self.sequence = change.sequence
        listener?.bulksChanged(snapshot: false)
        foldRecipients(change, until: until)
        if missing { reload() }        // a recipient of a bulk this pane never saw: read again
    }

    private func foldRecipients(_ change: LedgerChange, until: Date) {
        guard let followed else { return }
        let mine = change.deliveries.filter { $0.bulkId == followed }
        guard !mine.isEmpty else { return }
        if mine.contains(where: { $0.from == nil }) { loadRecipients(highlight: true); return }
        var at: [Int64: Int] = [:]
        for (i, r) in recipients.enumerated() { if let id = r.invitationId { at[id] = i } }
        for delivery in mine {
            guard let id = delivery.invitationId, let i = at[id] else { continue }
            recipients[i] = recipients[i].with(status: delivery.to, at: delivery.at)
            highlights[HighlightKey(String(id), .status)] = until
        }
        listener?.recipientsChanged()
    }

    private func lightChanges(from old: [BulkSummary], to new: [BulkSummary]) {
        let before = Dictionary(old.map { ($0.bulkId, $0) }, uniquingKeysWith: { a, _ in a })
        let until = clock.now().addingTimeInterval(highlightDuration)
        for bulk in new {
            guard let was = before[bulk.bulkId] else { highlights[HighlightKey(bulk.bulkId, .row)] = until; continue }
            for column in DeliveryColumn.counted where was.count(column) != bulk.count(column) {
                highlights[HighlightKey(bulk.bulkId, column)] = until
            }
        }
    }

    /// Follows `bulkId`'s recipients (read off the UI thread, then kept live), nil to follow none.
    public func follow(_ bulkId: String?) {
        followed = bulkId
        recipients = []
        listener?.recipientsChanged()
        loadRecipients(highlight: false)
    }

    private func loadRecipients(highlight: Bool) {
        guard let id = followed else { return }
        isLoadingRecipients = true
        let read = source.recipients
        // Following another bulk cancels the read of the one before.
        effects.perform({ try await read(id) }, supersedes: "deliveries.recipients", then: { [weak self] result in
            guard let self, self.followed == id else { return }
            self.isLoadingRecipients = false
            switch result {
            case .success(let fresh):
                if highlight {
                    let before = Dictionary(self.recipients.compactMap { r in r.invitationId.map { ($0, r.status) } },
                                            uniquingKeysWith: { a, _ in a })
                    let until = self.clock.now().addingTimeInterval(self.highlightDuration)
                    for r in fresh {
                        guard let rid = r.invitationId, let was = before[rid], was != r.status else { continue }
                        self.highlights[HighlightKey(String(rid), .status)] = until
                    }
                }
                self.recipients = fresh
                self.listener?.recipientsChanged()
            case .failure(let error):
                self.listener?.loadFailed(error, recipients: true)
            }
        })
    }

    // MARK: lights

    /// True while `column` of `row` (a bulkId, or an invitation id for recipients) is lit.
    public func isHighlighted(_ row: String, _ column: DeliveryColumn, now: Date) -> Bool {
        if let until = highlights[HighlightKey(row, column)], until > now { return true }
        return column != .row && highlights[HighlightKey(row, .row)].map { $0 > now } == true
    }

    /// Puts out expired lights; true when one went out.
    public func expireLights(now: Date) -> Bool {
        let before = highlights.count
        highlights = highlights.filter { $0.value > now }
        return highlights.count != before
    }
}
