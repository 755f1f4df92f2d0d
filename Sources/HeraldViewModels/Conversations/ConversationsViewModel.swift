import Foundation
import HeraldCore
import HeraldServices

/// The Replies pane's state: the conversations (one per number, newest first, with their unread replies), the unread
/// filter, one thread open, the answer being written and its question, and adding an unknown number to the book.
///
/// The thread lives in `ConversationsViewModel+Thread.swift`, answering in `+Answer.swift`, the address book in
/// `+Contact.swift`. Nothing here reads the platform on the UI thread: every read is an effect, and a reply told of by
/// the event bus (`.repliesChanged`) is folded into what is shown at once, then read again to be exact.
public final class ConversationsViewModel {
    public let context: ViewModelContext
    let service: ConversationService
    /// Where `a` adds an unknown number; nil: the key says it cannot here.
    let book: ContactBook?
    /// The address books (`[[books]]`) a new contact may go to (the form's Book row); empty without them.
    public let bookNames: [String]
    /// Why this terminal changes nothing (a viewer key, `--read-only`); it then neither answers, adds, nor marks seen.
    public let readOnlyReason: String?
    /// The sender an answer leaves from, and the warning when people cannot reply to it.
    public let sender: AnswerSender

    /// The conversations shown, newest first (the filter's).
    public internal(set) var rows: [ConversationRow] = []
    /// Unread replies over every conversation; nil until first read.
    public private(set) var unreadTotal: Int?
    /// More conversations exist than were read.
    public private(set) var hasMore = false
    public private(set) var filter: ConversationFilter = .all
    public private(set) var cursor = 0
    /// True until the first list arrived.
    public private(set) var isLoading = true
    /// Why the list could not be read (shown in its place); nil when it could.
    public private(set) var loadError: String?
    /// Numbers whose row changed by a reply just now, and when the light goes out.
    public private(set) var lit: [String: Date] = [:]
    /// How long a row a reply changed stays lit.
    public var lightDuration: TimeInterval = 2

    /// The thread open (Enter), as last read; `openNumber` is set before it arrives.
    public internal(set) var thread: ConversationDetail?
    /// The number whose thread is open (E.164 with the plus); nil: the list.
    public internal(set) var openNumber: String?
    public internal(set) var isLoadingThread = false
    /// The answer being written (`r`), kept while its question is asked and after esc (r goes on with it).
    public internal(set) var draft: AnswerDraft?
    /// True while the answer's editor is open.
    public internal(set) var isWriting = false
    /// The question before the answer leaves.
    public internal(set) var confirmation: AnswerConfirmation?
    public internal(set) var isSending = false

    /// A list read in flight, and whether another must follow it (an event told of a change meanwhile).
    private var listing = false
    private var listAgain = false
    /// Counts list reads asked for, so that a late answer to an older filter is dropped.
    private var listGeneration = 0
    /// A thread read in flight, and whether another must follow it.
    var threadReading = false
    var threadAgain = false

    /// How many conversations the list reads.
    public static let pageSize = 200

    public init(service: ConversationService, book: ContactBook?, bookNames: [String] = [], readOnlyReason: String?,
                context: ViewModelContext) {
        self.service = service
        self.book = book
        self.bookNames = bookNames
        self.readOnlyReason = readOnlyReason
        self.context = context
        sender = service.answerSender()
        reload()
    }

    var toasts: ToastBoard { context.toasts }

    func notify(_ text: String, level: ToastLevel = .info) { toasts.post(text, level: level) }

    /// The conversation under the cursor.
    public var current: ConversationRow? { rows.indices.contains(cursor) ? rows[cursor] : nil }

    /// The row of `number`, when listed.
    public func row(of number: String) -> ConversationRow? { rows.first { $0.number == number } }

    /// "3 conversations · 2 unread replies" (with the filter named when it hides some).
    public var countsLine: String {
        var text = counted(rows.count, "conversation") + (hasMore ? "+" : "")
        if filter == .unread { text += " with unread replies" }
        if let unread = unreadTotal { text += " · " + counted(unread, "unread reply", "unread replies") }
        return text
    }

    // MARK: reading the list

    /// The key list reads run under: a read asked for replaces the one in flight.
    static let listEffect = "replies.list"

    /// Reads the list again now (`ctrl-r`, a new filter, after an answer): a read in flight is replaced.
    public func reload() {
        listAgain = false
        listing = true
        listGeneration += 1
        // Everything the work needs is taken here: a main-actor value read inside it would tie it to the UI thread.
        let asked = listGeneration, service = self.service, unreadOnly = filter == .unread, limit = Self.pageSize
        context.effects.perform({ try await service.list(unreadOnly: unreadOnly, limit: limit) },
                                supersedes: Self.listEffect) { [weak self] result in
            guard let self, asked == self.listGeneration else { return }
            self.listing = false
            defer { if self.listAgain { self.refreshList() } }
            self.isLoading = false
            switch result {
            case .success(let page):
                self.loadError = nil
                self.accept(page)
            case .failure(let error):
                // A list shown stays shown (a refresh failed); with none yet, the reason stands in its place.
                if self.rows.isEmpty { self.loadError = "could not read the conversations: " + userMessage(for: error) }
                else { self.notify("could not read the conversations again: " + userMessage(for: error), level: .warning) }
            }
        }
    }

    /// Reads the list again after a change told of by an event: a read in flight is let finish and followed by one
    /// more (a flood of replies reads the list a few times, not once per reply).
    func refreshList() {
        guard !listing else { listAgain = true; return }
        reload()
    }

    /// Takes a list read: the cursor stays on the conversation it was on.
    private func accept(_ page: ConversationPage) {
        let kept = current?.number
        rows = page.rows
        hasMore = page.hasMore
        setUnreadTotal(page.unreadTotal)
        if let kept, let at = rows.firstIndex(where: { $0.number == kept }) { cursor = at }
        cursor = rows.isEmpty ? 0 : min(cursor, rows.count - 1)
    }

    func setUnreadTotal(_ total: Int) {
        let value = max(0, total)
        unreadTotal = value
        context.app.setUnreadReplies(value)
    }

    /// `f`: every conversation, or only those with unread replies.
    public func cycleFilter() { setFilter(filter.next) }

    public func setFilter(_ new: ConversationFilter) {
        guard new != filter else { return }
        filter = new
        cursor = 0
        reload()
    }

    // MARK: the cursor

    public func moveCursor(to index: Int) {
        cursor = rows.isEmpty ? 0 : max(0, min(index, rows.count - 1))
    }

    public func moveCursor(by delta: Int) { moveCursor(to: cursor + delta) }

    // MARK: events

    /// Folds a service event; true when something shown changed. A reply shows at once in the list (its row goes on
    /// top, lit, its unread count up) and in the open thread; the list is then read again to be exact.
    @discardableResult
    public func handle(_ event: HeraldEvent) -> Bool {
        switch event {
        case .repliesChanged(let change):
            setUnreadTotal(change.unreadTotal)
            if let reply = change.reply {
                fold(reply, from: change.number, name: change.name)
            } else if let at = rows.firstIndex(where: { $0.number == change.number }) {
                rows[at].unread = 0                  // marked seen (here or elsewhere)
                if filter == .unread { dropRead() }
            }
            if openNumber == change.number {
                if let reply = change.reply { foldIntoThread(reply) } else { markThreadRead() }
                readThread()
            }
            refreshList()
            return true
        case .ledgerChanged(let change):
            // An answer (or invitation) to the open thread's number moved: its status is read again.
            guard let open = openNumber else { return false }
            let digits = open.filter(\.isNumber)
            guard change.deliveries.contains(where: { $0.address.filter(\.isNumber) == digits }) else { return false }
            readThread()
            return false
        default:
            return false
        }
    }

    /// A reply from `number`: its row on top with the reply as the latest message and one more unread, lit.
    private func fold(_ reply: ConversationEntry, from number: String, name: String?) {
        let kept = current?.number
        var row = rows.first { $0.number == number }
            ?? ConversationRow(number: number, name: name, lastAt: reply.at, lastText: reply.text, lastIsReply: true, unread: 0, replies: 0)
        rows.removeAll { $0.number == number }
        if reply.at >= row.lastAt || row.replies == 0 {
            row.lastAt = reply.at
            row.lastText = reply.text
            row.lastIsReply = true
        }
        if !reply.seen { row.unread += 1 }
        row.replies += 1
        if row.name == nil { row.name = name }
        rows.insert(row, at: 0)
        lit[number] = context.clock.now().addingTimeInterval(lightDuration)
        if let kept, let at = rows.firstIndex(where: { $0.number == kept }) { cursor = at }
    }

    private func dropRead() {
        let kept = current?.number
        rows.removeAll { $0.unread == 0 }
        cursor = kept.flatMap { number in rows.firstIndex { $0.number == number } } ?? min(cursor, max(0, rows.count - 1))
    }

    // MARK: time

    /// True while the row of `number` is lit by a reply that just came.
    public func isLit(_ number: String, now: Date) -> Bool { (lit[number] ?? .distantPast) > now }

    /// When the next light goes out.
    public func nextDeadline() -> Date? { lit.values.min() }

    /// Puts out the lights whose time is up; true when one went out.
    public func tick(now: Date) -> Bool {
        let before = lit.count
        lit = lit.filter { $0.value > now }
        return lit.count != before
    }

    /// What `c`/`y` copies: the number of the open thread or of the row under the cursor.
    public var copyTarget: CopyTarget? {
        (openNumber ?? current?.number).map { CopyTarget(text: $0, what: "number") }
    }
}
