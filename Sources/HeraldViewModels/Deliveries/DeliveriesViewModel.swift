import Foundation
import HeraldCore
import HeraldServices

/// The Deliveries pane's state: every bulk with its counts per status, live as the tracker's
/// events arrive (changed cells stay lit for `highlightDuration`), one bulk opened to its
/// recipients, a status filter, the tracker's schedule, and resending what failed.
public final class DeliveriesViewModel {
    public let book: ContactBook
    private let invites: InviteService
    private let effects: EffectQueue
    private let toasts: ToastBoard
    private let clock: any HeraldClock
    /// How long a changed cell stays highlighted.
    public var highlightDuration: TimeInterval = 1.5

    public private(set) var bulks: [BulkSummary] = []
    public private(set) var filter: DeliveryFilter = .all
    public private(set) var cursor = 0
    /// The bulk opened to its recipients, nil for the list of bulks.
    public private(set) var openBulkId: String?
    public private(set) var recipients: [RecipientRow] = []
    public private(set) var recipientCursor = 0
    public private(set) var tracker: TrackerState?
    public private(set) var confirmation: ResendConfirmation?
    public private(set) var isResending = false
    public private(set) var loadError: String?
    /// True when events arrived since the ledger was last read.
    public private(set) var isStale = false
    /// Lit cells: (bulkId or invitation id as text, column) → when the light goes out.
    public private(set) var highlights: [HighlightKey: Date] = [:]

    /// A lit cell.
    public struct HighlightKey: Sendable, Hashable {
        public let row: String
        public let column: DeliveryColumn
        public init(_ row: String, _ column: DeliveryColumn) { self.row = row; self.column = column }
    }

    public init(book: ContactBook, invites: InviteService, effects: EffectQueue, toasts: ToastBoard,
                clock: any HeraldClock = SystemClock()) {
        self.book = book
        self.invites = invites
        self.effects = effects
        self.toasts = toasts
        self.clock = clock
        reload(highlightNew: false)
    }

    // MARK: reading

    /// Bulks the filter lets through (those with at least one recipient in that state).
    public var visibleBulks: [BulkSummary] { filter == .all ? bulks : bulks.filter { $0.count(filter) > 0 } }
    /// Recipients of the open bulk the filter lets through.
    public var visibleRecipients: [RecipientRow] { recipients.filter { filter.matches($0.status) } }
    public var currentBulk: BulkSummary? {
        let shown = visibleBulks
        return cursor < shown.count ? shown[cursor] : nil
    }
    /// The open bulk's summary.
    public var openBulk: BulkSummary? { openBulkId.flatMap { id in bulks.first { $0.bulkId == id } } }

    /// Reads the ledger again when events said it changed (once per frame at most).
    public func refreshIfNeeded() {
        guard isStale else { return }
        isStale = false
        reload()
    }

    /// Reads every bulk again; new bulks and changed counts light up (unless `highlightNew` is false).
    public func reload(highlightNew: Bool = true) {
        let keep = currentBulk?.bulkId
        do {
            let fresh = try book.bulks().map { BulkSummary(record: $0.bulk, statuses: $0.statuses) }
            if highlightNew { lightChanges(from: bulks, to: fresh) }
            bulks = fresh
            loadError = nil
        } catch {
            loadError = "cannot read the ledger: \(error)"
        }
        if let keep, let at = visibleBulks.firstIndex(where: { $0.bulkId == keep }) { cursor = at }
        cursor = max(0, min(cursor, visibleBulks.count - 1))
        if openBulkId != nil { reloadRecipients(highlight: highlightNew) }
    }

    private func lightChanges(from old: [BulkSummary], to new: [BulkSummary]) {
        let before = Dictionary(old.map { ($0.bulkId, $0) }, uniquingKeysWith: { a, _ in a })
        let until = clock.now().addingTimeInterval(highlightDuration)
        for bulk in new {
            guard let was = before[bulk.bulkId] else { highlights[HighlightKey(bulk.bulkId, .row)] = until; continue }
            if was.invited != bulk.invited { highlights[HighlightKey(bulk.bulkId, .invited)] = until }
            if was.pending != bulk.pending { highlights[HighlightKey(bulk.bulkId, .pending)] = until }
            if was.impossible != bulk.impossible { highlights[HighlightKey(bulk.bulkId, .impossible)] = until }
        }
    }

    private func reloadRecipients(highlight: Bool) {
        guard let id = openBulkId else { return }
        do {
            let fresh = try book.recipients(ofBulk: id).map(RecipientRow.init)
            if highlight {
                let before = Dictionary(recipients.compactMap { r in r.invitationId.map { ($0, r.status) } }, uniquingKeysWith: { a, _ in a })
                let until = clock.now().addingTimeInterval(highlightDuration)
                for r in fresh {
                    guard let rid = r.invitationId, let was = before[rid], was != r.status else { continue }
                    highlights[HighlightKey(String(rid), .status)] = until
                }
            }
            recipients = fresh
        } catch {
            toasts.post("cannot read the recipients: \(error)", level: .error)
        }
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
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
        guard let tracker, !tracker.bulks.isEmpty else { return "tracker idle: every bulk settled" }
        var parts: [String] = []
        if let until = tracker.backingOffUntil, until > now {
            parts.append("backing off \(Int(until.timeIntervalSince(now).rounded(.up))) s")
        } else if let next = tracker.nextPassAt {
            parts.append("next pass in \(max(0, Int(next.timeIntervalSince(now).rounded(.up)))) s")
        }
        let left = tracker.bulks.map(\.passesLeft).max() ?? 0
        parts.append("\(tracker.bulks.count) bulk\(tracker.bulks.count == 1 ? "" : "s") watched, up to \(left) pass\(left == 1 ? "" : "es") left")
        return parts.joined(separator: " · ")
    }

    /// Passes left for a bulk from the tracker's schedule; nil when it is not being watched.
    public func passesLeft(_ bulkId: String) -> Int? { tracker?.bulks.first { $0.bulkId == bulkId }?.passesLeft }

    // MARK: actions

    public func moveCursor(by delta: Int) {
        if openBulkId != nil {
            recipientCursor = max(0, min(recipientCursor + delta, visibleRecipients.count - 1))
        } else {
            cursor = max(0, min(cursor + delta, visibleBulks.count - 1))
        }
    }

    public func moveCursor(to index: Int) {
        if openBulkId != nil { recipientCursor = max(0, min(index, visibleRecipients.count - 1)) }
        else { cursor = max(0, min(index, visibleBulks.count - 1)) }
    }

    /// Opens the bulk under the cursor.
    public func open() {
        guard openBulkId == nil, let bulk = currentBulk else { return }
        openBulkId = bulk.bulkId
        recipientCursor = 0
        reloadRecipients(highlight: false)
    }

    /// Closes the open bulk; false when none was open.
    public func close() -> Bool {
        guard openBulkId != nil else { return false }
        openBulkId = nil
        recipients = []
        return true
    }

    public func setFilter(_ new: DeliveryFilter) {
        filter = new
        cursor = max(0, min(cursor, visibleBulks.count - 1))
        recipientCursor = max(0, min(recipientCursor, visibleRecipients.count - 1))
    }

    public func cycleFilter() { setFilter(filter.next) }

    /// Asks to resend the failed numbers of the open bulk (or the bulk under the cursor).
    public func requestResend() {
        guard !isResending else { toasts.post("a resend is already running", level: .warning); return }
        guard let bulkId = openBulkId ?? currentBulk?.bulkId else { toasts.post("no bulk to resend", level: .warning); return }
        let rows = (try? book.recipients(ofBulk: bulkId)) ?? []
        let failed = Array(Set(rows.map(\.invitation).filter { $0.status.isImpossible }.map(\.msisdn))).sorted()
        guard !failed.isEmpty else { toasts.post("nothing failed in bulk \(bulkId.prefix(8))", level: .info); return }
        confirmation = ResendConfirmation(bulkId: bulkId, numbers: failed)
    }

    public func cancelResend() { confirmation = nil }

    /// Sends the confirmed resend; the resend policy decides number by number (skips are reported).
    public func confirmResend() {
        guard let confirmation, !isResending else { return }
        self.confirmation = nil
        isResending = true
        let invites = self.invites, numbers = confirmation.numbers
        effects.perform({ try await invites.invite(numbers: numbers, options: InviteOptions(policy: .default)) },
                        then: { [weak self] result in
            guard let self else { return }
            self.isResending = false
            switch result {
            case .success(let sent):
                var text = "resent to \(sent.recipients.count) number\(sent.recipients.count == 1 ? "" : "s")"
                if let bulk = sent.bulkId { text += " (bulk \(bulk.prefix(8)))" }
                if !sent.skipped.isEmpty { text += "; \(sent.skipped.count) skipped by the resend policy" }
                self.toasts.post(text, level: sent.recipients.isEmpty ? .warning : .success)
                self.reload()
            case .failure(let error):
                self.toasts.post("resend failed: \((error as? any UserFacingError)?.userMessage ?? "\(error)")", level: .error)
            }
        })
    }

    // MARK: events

    /// Folds a service event; true when something shown changed.
    public func handle(event: HeraldEvent) -> Bool {
        switch event {
        case .deliveryChanged, .bulkSent, .bulksDiscovered:
            isStale = true     // many changes arrive together: read the ledger once, before the next frame
            return true
        case .trackerState(let state):
            tracker = state
            return true
        default:
            return false
        }
    }
}
