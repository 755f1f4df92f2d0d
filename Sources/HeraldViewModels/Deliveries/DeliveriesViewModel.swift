import Foundation
import HeraldCore
import HeraldServices

/// The Deliveries pane's state: every bulk with its counts per status, live as the change feed's
/// batches arrive (changed cells stay lit for `highlightDuration`), one bulk opened to its
/// recipients, a status filter, the tracker's schedule, and resending what failed.
///
/// Reads happen off the UI thread: the bulks come as one snapshot (one grouped query) taken at a
/// change sequence; from then on each `.ledgerChanged` batch that continues that sequence is folded
/// into the counts in memory. A batch that does not continue it (the pane missed one) reads a fresh
/// snapshot. Render and keys only read what this holds.
public final class DeliveriesViewModel {
    public let context: ViewModelContext
    public let book: ContactBook
    private let invites: InviteService
    /// How long a changed cell stays highlighted.
    public var highlightDuration: TimeInterval = 1.5

    public private(set) var bulks: [BulkSummary] = [] { didSet { refilter() } }
    public private(set) var filter: DeliveryFilter = .all { didSet { refilter() } }
    public private(set) var sort: DeliverySort = .newest { didSet { refilter() } }
    /// The `/` search: the cursor jumps between matching rows; nothing is hidden.
    public private(set) var search = ListSearch()
    /// Bumped whenever the shown rows change, so the match count is counted again only then.
    private var shownVersion = 0
    private var matchCount: (key: MatchKey, count: Int)?
    /// Bulks the filter lets through (those with at least one recipient in that state).
    public private(set) var visibleBulks: [BulkSummary] = []
    /// Characters of the longest id shown (ids are ASCII once sanitised): counted when the rows change, not per frame.
    public private(set) var longestBulkId = 0
    public private(set) var cursor = 0
    /// The bulk opened to its recipients, nil for the list of bulks.
    public private(set) var openBulkId: String?
    public private(set) var recipients: [RecipientRow] = [] { didSet { refilterRecipients() } }
    /// Recipients of the open bulk the filter lets through.
    public private(set) var visibleRecipients: [RecipientRow] = []
    public private(set) var recipientCursor = 0
    /// The recipient shown in detail (Enter on a recipient of the open bulk), by invitation id.
    public private(set) var detailId: Int64?
    public private(set) var tracker: TrackerState?
    public private(set) var confirmation: ResendConfirmation?
    /// Bulks selected with space in the list, and recipients selected in the open bulk (by invitation id): `r`
    /// resends what failed among them.
    public private(set) var selectedBulks: Set<String> = []
    public private(set) var selectedRecipients: Set<Int64> = []
    public private(set) var isResending = false
    public private(set) var loadError: String?
    /// True until the first snapshot arrived.
    public private(set) var isLoading = true
    /// True while the open bulk's recipients are being read.
    public private(set) var isLoadingRecipients = false
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

    /// A lit cell.
    public struct HighlightKey: Sendable, Hashable {
        public let row: String
        public let column: DeliveryColumn
        public init(_ row: String, _ column: DeliveryColumn) { self.row = row; self.column = column }
    }

    public init(book: ContactBook, invites: InviteService, context: ViewModelContext) {
        self.book = book
        self.invites = invites
        self.context = context
        reload()
    }

    private var effects: EffectQueue { context.effects }
    private var toasts: ToastBoard { context.toasts }
    private var clock: any HeraldClock { context.clock }

    // MARK: reading

    public var currentBulk: BulkSummary? { cursor < visibleBulks.count ? visibleBulks[cursor] : nil }
    /// The recipient under the cursor in the open bulk.
    public var currentRecipient: RecipientRow? {
        openBulkId != nil && visibleRecipients.indices.contains(recipientCursor) ? visibleRecipients[recipientCursor] : nil
    }
    /// The recipient shown in detail, as it stands now (its status moves live).
    public var detail: RecipientRow? { detailId.flatMap { id in recipients.first { $0.invitationId == id } } }
    /// The open bulk's summary.
    public var openBulk: BulkSummary? { openBulkId.flatMap { id in bulks.first { $0.bulkId == id } } }

    private func refilter() {
        visibleBulks = sort.ordered(filter == .all ? bulks : bulks.filter { $0.count(filter) > 0 })
        longestBulkId = visibleBulks.lazy.map(\.bulkId.utf8.count).max() ?? 0
        shownVersion += 1
        cursor = max(0, min(cursor, visibleBulks.count - 1))
        refilterRecipients()
    }

    private func refilterRecipients() {
        visibleRecipients = sort.ordered(filter == .all ? recipients : recipients.filter { filter.matches($0.status) })
        shownVersion += 1
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
        // The cursor stays on the recipient shown in detail; one no longer shown closes the detail.
        if let id = detailId {
            if let at = visibleRecipients.firstIndex(where: { $0.invitationId == id }) { recipientCursor = at } else { detailId = nil }
        }
    }

    /// Reads every bulk again off the UI thread (first load, `ctrl-r`, or a missed batch).
    public func reload() {
        guard !snapshotInFlight else { return }
        snapshotInFlight = true
        sequence = nil
        let book = self.book
        effects.perform({ try await book.deliveriesSnapshot() }, then: { [weak self] result in
            self?.receive(result)
        })
    }

    private func receive(_ result: Result<BulkCountsSnapshot, any Error>) {
        snapshotInFlight = false
        isLoading = false
        snapshotsRead += 1
        switch result {
        case .success(let snapshot):
            let keep = currentBulk?.bulkId
            let fresh = snapshot.bulks.map(BulkSummary.init)
            if !bulks.isEmpty { lightChanges(from: bulks, to: fresh) }
            bulks = fresh
            sequence = snapshot.sequence
            loadError = nil
            if let keep, let at = visibleBulks.firstIndex(where: { $0.bulkId == keep }) { cursor = at }
            let held = waiting
            waiting = []
            for change in held { fold(change) }
        case .failure(let error):
            loadError = "could not read the ledger: \(userMessage(for: error))"
            waiting = []
        }
    }

    /// Folds one batch of the change feed into the counts (and the open bulk's recipients).
    private func fold(_ change: LedgerChange) {
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
        foldRecipients(change, until: until)
        if missing { reload() }        // a recipient of a bulk this pane never saw: read again
    }

    private func foldRecipients(_ change: LedgerChange, until: Date) {
        guard let open = openBulkId else { return }
        let mine = change.deliveries.filter { $0.bulkId == open }
        guard !mine.isEmpty else { return }
        if mine.contains(where: { $0.from == nil }) { loadRecipients(highlight: true); return }
        var at: [Int64: Int] = [:]
        for (i, r) in recipients.enumerated() { if let id = r.invitationId { at[id] = i } }
        for delivery in mine {
            guard let id = delivery.invitationId, let i = at[id] else { continue }
            recipients[i] = recipients[i].with(status: delivery.to, at: delivery.at)
            highlights[HighlightKey(String(id), .status)] = until
        }
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
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

    private func loadRecipients(highlight: Bool) {
        guard let id = openBulkId else { return }
        isLoadingRecipients = true
        let book = self.book
        // Opening another bulk cancels the read of the one before.
        effects.perform({ try await book.recipients(ofBulk: id).map(RecipientRow.init) }, supersedes: "deliveries.recipients",
                        then: { [weak self] result in
            guard let self, self.openBulkId == id else { return }
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
            case .failure(let error):
                self.toasts.post("could not read the recipients: \(userMessage(for: error))", level: .error)
            }
            self.recipientCursor = max(0, min(self.recipientCursor, self.visibleRecipients.count - 1))
        })
    }

    /// True while `column` of `row` (a bulkId, or an invitation id for recipients) is lit.
    public func isHighlighted(_ row: String, _ column: DeliveryColumn, now: Date) -> Bool {
        if let until = highlights[HighlightKey(row, column)], until > now { return true }
        return column != .row && highlights[HighlightKey(row, .row)].map { $0 > now } == true
    }

    // MARK: time

    /// The next time the screen must change by itself: a light going out, or the tracker's
    /// countdown moving to the next second.
    public func nextDeadline(now: Date) -> Date? {
        var dates = Array(highlights.values)
        if let next = tracker?.nextPassAt, next > now {
            let seconds = next.timeIntervalSince(now)
            dates.append(now.addingTimeInterval(seconds - floor(seconds) + 0.001))
        }
        return dates.min()
    }

    /// Puts out expired lights; true when the screen changed (the countdown always does).
    public func tick(now: Date) -> Bool {
        let before = highlights.count
        highlights = highlights.filter { $0.value > now }
        return highlights.count != before || tracker?.nextPassAt != nil
    }

    /// "next pass in 3 s · 2 bulks watched (7 passes left)" or "idle".
    public func trackerLine(now: Date) -> String {
        guard let tracker else { return "tracker starting…" }
        guard !tracker.bulks.isEmpty else { return "tracker idle: every bulk settled" }
        var parts: [String] = []
        if let until = tracker.backingOffUntil, until > now {
            parts.append("backing off \(Int(until.timeIntervalSince(now).rounded(.up))) s")
        } else if let next = tracker.nextPassAt {
            // An absolute time: it stays true between frames (a countdown would be stale until the next redraw).
            parts.append("next pass at \(AppViewModel.clockTime(next))")
        }
        let left = tracker.bulks.map(\.passesLeft).max() ?? 0
        parts.append("\(tracker.bulks.count) bulk\(tracker.bulks.count == 1 ? "" : "s") watched, up to \(left) pass\(left == 1 ? "" : "es") left")
        return parts.joined(separator: " · ")
    }

    /// Passes left for a bulk from the tracker's schedule; nil when it is not being watched.
    public func passesLeft(_ bulkId: String) -> Int? { tracker?.bulks.first { $0.bulkId == bulkId }?.passesLeft }

    // MARK: actions

    public func moveCursor(by delta: Int) {
        moveCursor(to: (openBulkId != nil ? recipientCursor : cursor) + delta)
    }

    /// Moves the cursor; a recipient's detail follows it.
    public func moveCursor(to index: Int) {
        if openBulkId != nil {
            recipientCursor = max(0, min(index, visibleRecipients.count - 1))
            if detailId != nil { detailId = currentRecipient?.invitationId }
        } else {
            cursor = max(0, min(index, visibleBulks.count - 1))
        }
    }

    /// Opens the bulk under the cursor; in an open bulk, the recipient under the cursor in detail (again: closes it).
    public func open() {
        if openBulkId != nil {
            detailId = detailId == nil ? currentRecipient?.invitationId : nil
            return
        }
        guard let bulk = currentBulk else { return }
        openBulkId = bulk.bulkId
        recipientCursor = 0
        recipients = []
        loadRecipients(highlight: false)
    }

    /// Closes the recipient's detail, else the open bulk; false when neither was open.
    public func close() -> Bool {
        if detailId != nil { detailId = nil; return true }
        guard openBulkId != nil else { return false }
        openBulkId = nil
        detailId = nil
        selectedRecipients = []
        recipients = []
        return true
    }

    public func setFilter(_ new: DeliveryFilter) {
        filter = new
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
    }

    public func cycleFilter() { setFilter(filter.next) }

    /// The next order; the cursor stays on the bulk (or recipient) it was on.
    public func cycleSort() { setSort(sort.next) }

    /// Sorts by `order` (`:sort`); the cursor stays on the bulk (or recipient) it was on.
    public func setSort(_ order: DeliverySort) {
        let bulkId = currentBulk?.bulkId
        let recipient = visibleRecipients.indices.contains(recipientCursor) ? visibleRecipients[recipientCursor] : nil
        sort = order
        if let bulkId, let at = visibleBulks.firstIndex(where: { $0.bulkId == bulkId }) { cursor = at }
        if let recipient, let at = visibleRecipients.firstIndex(of: recipient) { recipientCursor = at }
    }

    /// `:sort first|last` here: says which orders Deliveries have.
    public func refuseSort(_ name: String) {
        toasts.post("Deliveries sort by \(DeliverySort.allCases.map(\.name).joined(separator: ", ")); \(name) is an order of Contacts",
                    level: .warning)
    }

    /// Selects or unselects the row under the cursor (a bulk, or a recipient of the open bulk).
    public func toggleSelection() {
        if openBulkId != nil {
            guard let id = currentRecipient?.invitationId else { return }
            if selectedRecipients.remove(id) == nil { selectedRecipients.insert(id) }
        } else if let id = currentBulk?.bulkId {
            if selectedBulks.remove(id) == nil { selectedBulks.insert(id) }
        }
    }

    /// Asks to resend what failed: among the selected recipients of the open bulk, else in the open bulk, else in the
    /// selected bulks, else in the bulk under the cursor. Bulks not open are read off the UI thread.
    public func requestResend() {
        guard !isResending else { toasts.post("a resend is already running", level: .warning); return }
        if let open = openBulkId, !isLoadingRecipients || !selectedRecipients.isEmpty {
            let chosen = selectedRecipients.isEmpty ? recipients : recipients.filter { $0.invitationId.map(selectedRecipients.contains) ?? false }
            let what = selectedRecipients.isEmpty ? "in bulk \(open.prefix(8))" : "among \(counted(selectedRecipients.count, "selected recipient"))"
            confirmResend(of: [open], failed: chosen.filter { $0.status.isResendable(for: $0.number) }.map(\.number), what: what)
            return
        }
        let bulkIds = openBulkId.map { [$0] } ?? (selectedBulks.isEmpty ? currentBulk.map { [$0.bulkId] } ?? [] : selectedBulks.sorted())
        guard !bulkIds.isEmpty else { toasts.post("no bulk to resend", level: .warning); return }
        let what = bulkIds.count == 1 ? "in bulk \(bulkIds[0].prefix(8))" : "in \(counted(bulkIds.count, "selected bulk"))"
        let book = self.book
        context.run({
            var failed: [String] = []
            for id in bulkIds {
                failed += try await book.recipients(ofBulk: id).map(\.invitation).filter { $0.status.isResendable(for: $0.msisdn) }
                    .map(\.msisdn)
            }
            return failed
        }, for: self, failure: "could not read the bulks to resend") { vm, failed in
            vm.confirmResend(of: bulkIds, failed: failed, what: what)
        }
    }

    private func confirmResend(of bulkIds: [String], failed numbers: [String], what: String) {
        let failed = Array(Set(numbers)).sorted()
        guard !failed.isEmpty else { toasts.post("nothing failed \(what)", level: .info); return }
        confirmation = ResendConfirmation(bulkIds: bulkIds, numbers: failed, what: what)
    }

    public func cancelResend() { confirmation = nil }

    // MARK: held bulks

    /// The bulk under the cursor (or the one open) when the platform still holds some of it.
    private var heldBulk: BulkSummary? {
        guard let bulk = openBulk ?? currentBulk, bulk.held > 0 else { return nil }
        return bulk
    }

    /// Takes back what the platform still holds of the bulk under the cursor; false when it holds nothing (the
    /// shell's take-back of the countdown runs instead).
    public func takeBack() -> Bool {
        guard let bulk = heldBulk else { return false }
        let invites = self.invites, id = bulk.bulkId
        context.run({ try await invites.cancel(bulkId: id) }, for: self, failure: nil) { vm, answer in
            vm.toasts.post("bulk \(id.prefix(8)): \(answer.summary)", level: answer.left == 0 ? .success : .warning)
        }
        return true
    }

    /// `:move TIME`: moves the held bulk under the cursor ("09:00", "+2h", "2026-12-01 09:00", local time).
    public func move(to text: String) {
        guard let bulk = heldBulk else {
            toasts.post("the bulk under the cursor holds nothing to move: :move works on a held (scheduled) bulk", level: .info)
            return
        }
        let sendAt: Date
        do { sendAt = try SendTime.parse(text, now: clock.now(), timeZone: .current) } catch {
            toasts.post(":move \(error.description)", level: .error)
            return
        }
        let invites = self.invites, id = bulk.bulkId
        context.run({ try await invites.reschedule(bulkId: id, to: sendAt) }, for: self, failure: nil) { vm, answer in
            vm.reload()
            vm.toasts.post("bulk \(id.prefix(8)): \(counted(answer.held, "invitation")) now \(answer.held == 1 ? "leaves" : "leave") at \(WallClock.timeOrDay(sendAt, now: vm.clock.now()))", level: .success)
        }
    }

    /// Sends the confirmed resend; the resend policy decides number by number (skips are reported).
    public func confirmResend() {
        guard let confirmation, !isResending else { return }
        self.confirmation = nil
        isResending = true
        let invites = self.invites, book = self.book
        let numbers = confirmation.numbers.filter { !$0.contains("@") }, emails = confirmation.numbers.filter { $0.contains("@") }
        // A resend of one bulk links back to it; one gathered from several bulks links to none of them.
        let original = confirmation.bulkIds.count == 1 ? confirmation.bulkIds[0] : nil
        selectedBulks = []
        selectedRecipients = []
        context.run({
            var sent = numbers.isEmpty ? InviteResult()
                : try await invites.invite(numbers: numbers, options: InviteOptions(policy: .default, resendOf: original))
            if !emails.isEmpty {
                // Emails go again with the text they had; one whose hand-over was cut short is sent again as asked.
                var text: String?
                if let original { text = try await book.bulk(id: original)?.messageText }
                let mailed = try await invites.invite(numbers: emails, options: InviteOptions(
                    policy: ResendPolicy(allowResendToInvited: true), resendOf: original, email: EmailOptions(text: text)))
                sent.bulkIds += mailed.bulkIds
                sent.recipients += mailed.recipients
                sent.skipped += mailed.skipped
            }
            return sent
        }, for: self, failure: "resend failed", finally: { $0.isResending = false }) { vm, sent in
            var text = "resent to \(counted(sent.recipients.count, "number"))"
            if let bulk = sent.bulkId { text += ": new bulk \(bulk.prefix(8))" + (original.map { ", a resend of \($0.prefix(8))" } ?? "") }
            if !sent.skipped.isEmpty { text += "; \(sent.skipped.count) skipped by the resend policy" }
            vm.toasts.post(text, level: sent.recipients.isEmpty ? .warning : .success)
        }
    }

    // MARK: events

    /// Folds a service event; true when something shown changed.
    public func handle(event: HeraldEvent) -> Bool {
        switch event {
        case .ledgerChanged(let change):
            fold(change)
            return true
        case .trackerState(let state):
            tracker = state
            return true
        default:
            return false
        }
    }

    /// What `c`/`y` copies: in an open bulk the recipient's message id (its number while it has none), else the
    /// bulk id under the cursor.
    public var copyTarget: CopyTarget? {
        if openBulkId != nil {
            guard visibleRecipients.indices.contains(recipientCursor) else { return nil }
            let r = visibleRecipients[recipientCursor]
            if let id = r.messageId { return CopyTarget(text: id, what: "message id") }
            return CopyTarget(text: r.number, what: "number")
        }
        return currentBulk.map { CopyTarget(text: $0.bulkId, what: "bulk id") }
    }


    // MARK: search (`/`, n, N)

    /// The text a search looks in for row `i` of what is shown: a bulk's id and message, or a recipient's name,
    /// number, status and message id.
    public func searchText(at i: Int) -> String {
        if openBulkId != nil {
            guard visibleRecipients.indices.contains(i) else { return "" }
            let r = visibleRecipients[i]
            return [r.name, r.number, r.statusText, r.messageId ?? "", r.error ?? ""].joined(separator: " ")
        }
        guard visibleBulks.indices.contains(i) else { return "" }
        return visibleBulks[i].bulkId + " " + visibleBulks[i].message
    }

    private var shownCount: Int { openBulkId != nil ? visibleRecipients.count : visibleBulks.count }
    private var shownCursor: Int { openBulkId != nil ? recipientCursor : cursor }

    /// How many shown rows match the search. Drawn every frame, so counted once per query and shown rows
    /// (10,000 bulks would otherwise be searched on every frame).
    public var searchMatches: Int {
        let key = MatchKey(query: search.query, openBulkId: openBulkId, shown: shownVersion)
        if let cached = matchCount, cached.key == key { return cached.count }
        let count = search.count(shownCount, text: searchText(at:))
        matchCount = (key, count)
        return count
    }

    private struct MatchKey: Equatable {
        let query: String
        let openBulkId: String?
        let shown: Int
    }

    /// Searches for `query` as it is typed: the cursor goes to the first match from where it is.
    public func setSearch(_ query: String) {
        search.set(query)
        if let at = search.find(from: shownCursor, count: shownCount, text: searchText(at:)) { moveCursor(to: at) }
    }

    /// `n` / `N`: the next or previous match after the cursor; a toast when nothing matches.
    public func findNext(backward: Bool = false) {
        guard !search.query.isEmpty else { toasts.post("no search yet: press / to search", level: .info); return }
        let start = backward ? shownCursor - 1 : shownCursor + 1
        guard let at = search.find(from: start, count: shownCount, backward: backward, text: searchText(at:)) else {
            toasts.post("nothing here matches \"\(search.query)\"", level: .info)
            return
        }
        moveCursor(to: at)
    }
}
