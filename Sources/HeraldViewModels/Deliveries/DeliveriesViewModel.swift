import Foundation
import HeraldCore
import HeraldServices

/// The Deliveries pane's state: the cursor, status filter, sort, search, selection and the resend question over the
/// rows a `BulkFeed` publishes (every bulk with its counts per status, live; one bulk opened to its recipients; the
/// lights of changed cells; the tracker's schedule), and resending what failed. Render and keys only read what this
/// holds; the feed reads off the UI thread.
public final class DeliveriesViewModel {
    public let context: ViewModelContext
    /// The bulks, the open bulk's recipients, the lights and the tracker's schedule.
    public let feed: BulkFeed
    let invites: InviteService
    let book: ContactBook
    /// The `/` query, the breakdown and the export, over the ledger.
    let search: DeliverySearch
    /// Who sent, moved, took back or resent a bulk (the platform's audit trail); nil: not shown.
    let audit: AuditTrail?
    /// The conversations, for the last messages of a recipient's number in its detail; nil: not shown.
    let conversations: ConversationService?
    /// The last messages of the number shown in detail (`DeliveriesViewModel+Conversation.swift`); nil while read.
    public internal(set) var detailConversation: ConversationExcerpt?

    public private(set) var filter: DeliveryFilter = .all { didSet { refilter() } }
    public private(set) var sort: DeliverySort = .newest { didSet { refilter() } }
    /// The `/` query: only bulks with a matching recipient show, and in an open bulk only the recipients that match.
    public internal(set) var query = DeliveryQueryState()
    /// The queries made before, kept across runs (↑/↓ in the field).
    public internal(set) var queryHistory = SearchHistory()
    /// The breakdown of what the query matches (`b`).
    public internal(set) var breakdown = DeliveryBreakdownState()
    /// The open bulk's audit trail, oldest first, as lines (nil while read or with no trail); `a` shows it whole.
    public internal(set) var bulkHistory: BulkHistory?
    public internal(set) var showsHistory = false
    /// The rows the filter and sort let through, as last worked out.
    private var shown = DeliveryRows()
    public private(set) var cursor = 0
    public private(set) var recipientCursor = 0
    /// The recipient shown in detail (Enter on a recipient of the open bulk), by invitation id.
    public private(set) var detailId: Int64? { didSet { if detailId != oldValue { readDetailConversation() } } }
    public private(set) var confirmation: ResendConfirmation?
    /// Bulks selected with space in the list, and recipients selected in the open bulk: `r` resends what failed among
    /// them.
    public private(set) var picks = DeliverySelection()
    public private(set) var isResending = false

    public typealias HighlightKey = BulkFeed.HighlightKey

    public init(book: ContactBook, invites: InviteService, search: DeliverySearch, audit: AuditTrail? = nil,
                conversations: ConversationService? = nil, context: ViewModelContext, source: BulkSource? = nil) {
        self.book = book
        self.conversations = conversations
        self.invites = invites
        self.search = search
        self.audit = audit
        self.context = context
        feed = BulkFeed(source: source ?? BulkSource(book: book), effects: context.effects, clock: context.clock)
        feed.listener = self
        feed.reload()
        loadQueryHistory()
    }

    var toasts: ToastBoard { context.toasts }

    // MARK: reading

    /// Every bulk, newest first (the feed's).
    public var bulks: [BulkSummary] { feed.bulks }
    /// Bulks the filter lets through (those with at least one recipient in that state).
    public var visibleBulks: [BulkSummary] { shown.bulks }
    /// Characters of the longest id shown (ids are ASCII once sanitised): counted when the rows change, not per frame.
    public var longestBulkId: Int { shown.longestBulkId }
    /// The bulk opened to its recipients, nil for the list of bulks.
    public var openBulkId: String? { feed.followed }
    public var recipients: [RecipientRow] { feed.recipients }
    /// Recipients of the open bulk the filter lets through.
    public var visibleRecipients: [RecipientRow] { shown.recipients }
    public var selectedBulks: Set<String> { picks.bulks }
    public var selectedRecipients: Set<Int64> { picks.recipients }
    public var tracker: TrackerState? { feed.tracker }
    public var loadError: String? { feed.loadError }
    /// True until the first snapshot arrived.
    public var isLoading: Bool { feed.isLoading }
    /// True while the open bulk's recipients are being read.
    public var isLoadingRecipients: Bool { feed.isLoadingRecipients }
    /// The change sequence the counts stand at (nil while a snapshot is being read).
    public var sequence: Int64? { feed.sequence }
    /// Snapshots read so far (the first one and every resync), for tests and the benchmark.
    public var snapshotsRead: Int { feed.snapshotsRead }
    /// Lit cells: (bulkId or invitation id as text, column) → when the light goes out.
    public var highlights: [HighlightKey: Date] { feed.highlights }
    /// How long a changed cell stays highlighted.
    public var highlightDuration: TimeInterval {
        get { feed.highlightDuration }
        set { feed.highlightDuration = newValue }
    }

    public var currentBulk: BulkSummary? { cursor < visibleBulks.count ? visibleBulks[cursor] : nil }
    /// The recipient under the cursor in the open bulk.
    public var currentRecipient: RecipientRow? {
        openBulkId != nil && visibleRecipients.indices.contains(recipientCursor) ? visibleRecipients[recipientCursor] : nil
    }
    /// The recipient shown in detail, as it stands now (its status moves live).
    public var detail: RecipientRow? { detailId.flatMap { id in recipients.first { $0.invitationId == id } } }
    /// The open bulk's summary.
    public var openBulk: BulkSummary? { openBulkId.flatMap { id in bulks.first { $0.bulkId == id } } }

    func refilter() {
        var kept = filter == .all ? bulks : bulks.filter { $0.count(filter) > 0 }
        if query.isActive, let matched = query.matches.map({ _ in query.matchedByBulk }) {
            kept = kept.filter { matched[$0.bulkId] != nil }
        }
        shown.bulks = sort.ordered(kept)
        shown.longestBulkId = shown.bulks.lazy.map(\.bulkId.utf8.count).max() ?? 0
        shown.version += 1
        cursor = max(0, min(cursor, visibleBulks.count - 1))
        refilterRecipients()
    }

    func refilterRecipients() {
        var kept = filter == .all ? recipients : recipients.filter { filter.matches($0.status) }
        if query.isActive, let ids = query.recipientIds { kept = kept.filter { $0.invitationId.map(ids.contains) ?? false } }
        shown.recipients = sort.ordered(kept)
        shown.version += 1
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
        // The cursor stays on the recipient shown in detail; one no longer shown closes the detail.
        if let id = detailId {
            if let at = visibleRecipients.firstIndex(where: { $0.invitationId == id }) { recipientCursor = at } else { detailId = nil }
        }
    }

    /// Reads every bulk again off the UI thread (`ctrl-r`); dropped while a read is under way.
    public func reload() { feed.reload() }

    /// True while `column` of `row` (a bulkId, or an invitation id for recipients) is lit.
    public func isHighlighted(_ row: String, _ column: DeliveryColumn, now: Date) -> Bool {
        feed.isHighlighted(row, column, now: now)
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
        feed.expireLights(now: now) || tracker?.nextPassAt != nil
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
        recipientCursor = 0
        feed.follow(bulk.bulkId)
        askOpenBulkMatches()
        readHistory(of: bulk.bulkId)
    }

    /// Closes the recipient's detail, else the open bulk; false when neither was open.
    public func close() -> Bool {
        if detailId != nil { detailId = nil; return true }
        if showsHistory { showsHistory = false; return true }
        guard openBulkId != nil else { return false }
        detailId = nil
        bulkHistory = nil
        picks.recipients = []
        feed.follow(nil)
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
            if picks.recipients.remove(id) == nil { picks.recipients.insert(id) }
        } else if let id = currentBulk?.bulkId {
            if picks.bulks.remove(id) == nil { picks.bulks.insert(id) }
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

    func confirmResend(of bulkIds: [String], failed numbers: [String], what: String) {
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
        do { sendAt = try SendTime.parse(text, now: context.clock.now(), timeZone: .current) } catch {
            toasts.post(":move \(error.description)", level: .error)
            return
        }
        let invites = self.invites, id = bulk.bulkId
        context.run({ try await invites.reschedule(bulkId: id, to: sendAt) }, for: self, failure: nil) { vm, answer in
            vm.reload()
            vm.toasts.post("bulk \(id.prefix(8)): \(counted(answer.held, "invitation")) now \(answer.held == 1 ? "leaves" : "leave") at \(WallClock.timeOrDay(sendAt, now: vm.context.clock.now()))", level: .success)
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
        picks = DeliverySelection()
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
            feed.fold(change)
            ledgerMoved()
            return true
        case .trackerState(let state):
            feed.tracker = state
            return true
        case .repliesChanged(let change):
            return foldReplies(change)
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
}

extension DeliveriesViewModel: BulkFeedListener {
    public func bulksChanged(snapshot: Bool) {
        // A snapshot keeps the cursor on the bulk it was on (the rows shown are still the old ones here).
        let keep = snapshot ? currentBulk?.bulkId : nil
        refilter()
        if let keep, let at = visibleBulks.firstIndex(where: { $0.bulkId == keep }) { cursor = at }
    }

    public func recipientsChanged() { refilterRecipients() }

    public func loadFailed(_ error: any Error, recipients: Bool) {
        // The bulks' failure is shown in place of the list (`loadError`); the recipients' as a toast.
        guard recipients else { return }
        toasts.post("could not read the recipients: \(userMessage(for: error))", level: .error)
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
    }
}
