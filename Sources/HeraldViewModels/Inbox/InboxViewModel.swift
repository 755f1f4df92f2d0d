import Foundation
import HeraldCore
import HeraldServices

/// The Inbox pane's state: whose inbox, the filter (topic, dates), the messages loaded so far
/// (older pages load as the cursor nears the end), counters, the message opened, and why the inbox
/// could not be read. Confined to the app loop's thread; service calls go through `effects`.
public final class InboxViewModel {
    public let context: ViewModelContext
    private let service: InboxService
    private let dates: InboxDateParser

    /// The external user id whose inbox is shown.
    public private(set) var user: String
    public private(set) var filter: InboxFilter
    /// Loaded messages, newest first (sanitise before drawing).
    public private(set) var messages: [InboxMessage] = []
    public private(set) var counts: InboxCounts = .zero
    /// Every topic seen in loaded messages (and the current one), sorted.
    public private(set) var topics: [String] = []
    /// Row under the cursor.
    public private(set) var cursor = 0
    /// The message shown in full, when one is open.
    public private(set) var opened: InboxMessage?
    /// The `/` search: the cursor jumps between matching messages; nothing is hidden.
    public private(set) var search = ListSearch()
    /// The page reads under way and where they stand (`InboxReads`).
    private var reads = InboxReads()
    /// Why the inbox could not be read (with the fix), shown in place of the list.
    public private(set) var problem: String?
    /// Rows from the end at which the next page is asked for.
    public var prefetchDistance = 5

    public init(service: InboxService, context: ViewModelContext, user: String, filter: InboxFilter = InboxFilter(),
                dates: InboxDateParser = InboxDateParser()) {
        self.service = service
        self.context = context
        self.user = user.trimmingCharacters(in: .whitespaces)
        self.filter = filter
        self.dates = dates
    }

    /// Tells the person at the keyboard something (a toast).
    public func notify(_ text: String, level: ToastLevel) { context.toasts.post(text, level: level) }

    /// True while a page is being read.
    public var isLoading: Bool { reads.isLoading }
    /// True while `refresh` reads the first page again in the background.
    public var isRefreshing: Bool { reads.isRefreshing }
    /// Why the last refresh failed (what is shown stays); nil once one succeeds.
    public var refreshProblem: String? { reads.refreshProblem }
    /// True when older messages are there to be read.
    public var hasMore: Bool { reads.hasMore }
    /// True when the platform could not be reached and the list comes from the local cache.
    public var fromCache: Bool { reads.fromCache }

    /// The message under the cursor.
    public var current: InboxMessage? { messages.indices.contains(cursor) ? messages[cursor] : nil }

    /// "12 messages, 3 unread" with the filtered counts when a filter is on.
    public var countsSummary: String {
        var text = "\(counts.total) messages, \(counts.unread) unread"
        if filter.isFiltering { text += " · filter: \(counts.totalFiltered) shown, \(counts.unreadFiltered) unread" }
        return text
    }

    /// The date fields as text ("" for no bound).
    public var fromText: String { filter.from.map(dates.format) ?? "" }
    public var toText: String {
        guard let to = filter.to else { return "" }
        // A whole day is stored as the next midnight (exclusive); show the day itself.
        let previous = to.addingTimeInterval(-86_400)
        let shown = dates.format(previous)
        return shown.count == 10 ? shown : dates.format(to)
    }

    // MARK: loading

    /// Loads the first page for the current user and filter (drops what was loaded).
    /// The key of the page reads: a new reload (another user, topic or date range) cancels the read it replaces.
    static let pageEffect = "inbox.page"

    public func reload() {
        guard !user.isEmpty else {
            problem = "no inbox user: type :user ID (the external user id, case-sensitive)"
            messages = []; counts = .zero; cursor = 0; opened = nil; reads.hasMore = false
            return
        }
        reads.generation += 1
        let asked = reads.generation
        reads.isLoading = true
        reads.refreshProblem = nil
        let service = self.service, user = self.user, filter = self.filter
        context.effects.perform({ try await service.fetch(user: user, filter: filter) }, supersedes: Self.pageEffect) { [weak self] result in
            guard let self, asked == self.reads.generation else { return }
            self.reads.isLoading = false
            switch result {
            case .success(let page):
                self.problem = nil
                self.messages = page.messages
                self.cursor = 0
                self.opened = nil
                self.accept(page)
            case .failure(let error):
                self.fail(error)
            }
        }
    }

    /// Reads the first page again without disturbing what is shown: messages that arrived meanwhile
    /// go on top, known ones take their new seen state, the cursor and an open message stay put.
    /// Does nothing while a read is in flight (the pane calls it on the platform's schedule while it is shown, and
    /// when the platform tells of a new message). A failed refresh keeps what is shown and says why
    /// (`refreshProblem`) until one succeeds.
    public func refresh() {
        if reads.isRefreshing { reads.refreshAgain = true }       // a message told of during a read is read right after it
        guard !user.isEmpty, !reads.isLoading, !reads.isRefreshing, problem == nil || reads.lastPage != nil else { return }
        let asked = reads.generation, marks = reads.seenEdits
        let service = self.service, user = self.user, filter = self.filter
        reads.isRefreshing = true
        context.effects.perform({ try await service.fetch(user: user, filter: filter, announce: false) }) { [weak self] result in
            guard let self else { return }
            self.reads.isRefreshing = false
            defer {
                if self.reads.refreshAgain { self.reads.refreshAgain = false; self.refresh() }
            }
            // A mark made meanwhile may not be in this answer: the next refresh has it.
            if case .failure(let error) = result {
                if asked == self.reads.generation { self.reads.refreshProblem = "could not refresh: " + InboxAuthAdvice.message(for: error) }
                return
            }
            guard asked == self.reads.generation, marks == self.reads.seenEdits, !self.reads.isLoading,
                  case .success(let page) = result else { return }
            // The platform did not answer and the local copy stood in: shown as offline, not as news.
            self.reads.fromCache = page.fromCache
            self.reads.refreshProblem = nil
            let fresh = Dictionary(page.messages.map { ($0.messageId, $0) }, uniquingKeysWith: { a, _ in a })
            let known = Set(self.messages.map(\.messageId))
            let arrived = page.messages.filter { !known.contains($0.messageId) }
            let current = self.messages.indices.contains(self.cursor) ? self.messages[self.cursor].messageId : nil
            self.messages = arrived + self.messages.map { fresh[$0.messageId] ?? $0 }
            if let current, let at = self.messages.firstIndex(where: { $0.messageId == current }) { self.cursor = at }
            self.setCounts(page.counts)
            var all = Set(self.topics)
            for m in arrived { if let t = m.topic { all.insert(t) } }
            self.topics = all.sorted()
        }
    }

    /// Asks for the page after the last one, when there is one and nothing is loading.
    public func loadMore() {
        guard let page = reads.lastPage, reads.hasMore, !reads.isLoading else { return }
        reads.isLoading = true
        let asked = reads.generation
        let service = self.service
        context.effects.perform({ try await service.nextPage(after: page) }, supersedes: Self.pageEffect) { [weak self] result in
            guard let self, asked == self.reads.generation else { return }
            self.reads.isLoading = false
            switch result {
            case .success(let next):
                let known = Set(self.messages.map(\.messageId))
                self.messages += next.messages.filter { !known.contains($0.messageId) }
                self.accept(next)
            case .failure(let error):
                self.notify("could not load older messages: " + InboxAuthAdvice.message(for: error), level: .error)
            }
        }
    }

    private func accept(_ page: InboxPage) {
        reads.lastPage = page
        reads.hasMore = page.hasMore
        reads.fromCache = page.fromCache
        setCounts(page.counts)
        var all = Set(topics)
        for m in page.messages { if let t = m.topic { all.insert(t) } }
        if let t = filter.topic { all.insert(t) }
        topics = all.sorted()
        cursor = messages.isEmpty ? 0 : min(cursor, messages.count - 1)
    }

    private func fail(_ error: any Error) {
        let text = InboxAuthAdvice.message(for: error)
        problem = text
        messages = []; cursor = 0; opened = nil; reads.hasMore = false; reads.lastPage = nil
        setCounts(.zero)
        notify(text, level: .error)
    }

    private func setCounts(_ new: InboxCounts) {
        let before = counts.unread
        counts = new
        if new.unread != before { context.app.setUnreadInbox(new.unread) }
    }

    // MARK: user and filter

    /// Shows another user's inbox (`:user ID` or the user field).
    public func setUser(_ id: String) {
        user = TerminalSafeText.sanitize(id).trimmingCharacters(in: .whitespaces)
        topics = []
        reload()
    }

    /// Next topic: none → each topic seen → none.
    public func cycleTopic() {
        guard !topics.isEmpty else {
            notify("no topics seen yet in this inbox", level: .info)
            return
        }
        if let t = filter.topic, let i = topics.firstIndex(of: t) {
            setTopic(i + 1 < topics.count ? topics[i + 1] : nil)
        } else {
            setTopic(topics[0])
        }
    }

    /// Shows only `topic` (nil: every topic).
    public func setTopic(_ topic: String?) {
        filter.topic = topic
        reload()
    }

    /// Sets the date range from the two fields; returns the problem (and changes nothing) when a
    /// field cannot be read or the range is empty.
    @discardableResult
    public func setDateRange(from fromText: String, to toText: String) -> String? {
        let from: Date?, to: Date?
        do {
            from = try dates.parse(fromText, as: .from)
            to = try dates.parse(toText, as: .to)
        } catch {
            return error.description
        }
        if let from, let to, from >= to { return "the range is empty: \"from\" must come before \"to\"" }
        filter.from = from
        filter.to = to
        reload()
        return nil
    }

    // MARK: cursor and reading

    /// Moves the cursor to `index` (clamped); near the end, older messages are asked for.
    public func moveCursor(to index: Int) {
        cursor = messages.isEmpty ? 0 : min(max(0, index), messages.count - 1)
        if cursor >= messages.count - prefetchDistance { loadMore() }
    }

    /// Opens the message under the cursor and marks it seen (a terminal that changes nothing leaves it unread: the
    /// user's inbox is theirs).
    public func openCurrent() {
        guard let message = current else { return }
        opened = message
        if service.readOnlyReason == nil { markSeen(message.messageId) }
    }

    /// Closes the opened message; false when none was open.
    @discardableResult
    public func closeMessage() -> Bool {
        guard opened != nil else { return false }
        opened = nil
        return true
    }

    /// Marks the message under the cursor seen without opening it.
    public func markCurrentSeen() {
        guard let message = current else { return }
        markSeen(message.messageId)
    }

    /// Opens the next (or previous) message of the list, as `J` / `K` do while reading.
    public func openNeighbour(forward: Bool) {
        let to = cursor + (forward ? 1 : -1)
        guard messages.indices.contains(to) else {
            notify(forward ? "this is the last message loaded" : "this is the first message", level: .info)
            return
        }
        moveCursor(to: to)
        openCurrent()
    }

    /// Marks the open message (or the one under the cursor) unread (`U`): kept unread on this workspace
    /// until opened again; an open message is closed, as a mail reader does.
    public func markCurrentUnread() {
        guard let message = opened ?? current else { return }
        guard message.seen else { notify("this message is already unread", level: .info); return }
        opened = nil
        applySeen([message.messageId], seen: false)
        let service = self.service, user = self.user, id = message.messageId
        context.effects.perform({ try await service.markUnread(user: user, messageIds: [id]) }) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            self.applySeen([id], seen: true)
            self.notify(userMessage(for: error), level: .error)
        }
    }

    /// Marks every loaded unread message seen (`A`), in one call.
    public func markAllSeen() {
        let ids = messages.filter { !$0.seen }.map(\.messageId)
        guard !ids.isEmpty else { notify("every loaded message is already read", level: .info); return }
        submitSeen(ids, saying: "marked \(ids.count) message\(ids.count == 1 ? "" : "s") read")
    }

    /// Marks one message seen at once (counters drop now). When the platform cannot take the mark now
    /// it stays marked and queued (a warning says so); when the platform refuses it, it is undone with
    /// an error toast.
    public func markSeen(_ messageId: String) {
        guard let message = messages.first(where: { $0.messageId == messageId }), !message.seen else { return }
        submitSeen([messageId], saying: nil)
    }

    /// Marks `ids` seen at once and sends the marks; `saying` is the toast when the platform took them.
    /// Marks it cannot take now stay (a warning says so); marks it refuses are undone (an error says why).
    private func submitSeen(_ ids: [String], saying done: String?) {
        applySeen(ids, seen: true)
        let service = self.service, user = self.user
        context.effects.perform({ try await service.markSeen(user: user, messageIds: ids) }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: if let done { self.notify(done, level: .success) }
            case .failure(let error):
                if case InboxError.seenNotSaved(_, let pending) = error, pending > 0 {
                    self.notify(userMessage(for: error), level: .warning)
                    return
                }
                self.applySeen(ids, seen: false)
                self.notify(userMessage(for: error), level: .error)
            }
        }
    }

    /// Sets the seen flag of loaded messages; counters move only for flags that really change, so
    /// the optimistic mark and the service's event for it count once.
    private func applySeen(_ ids: [String], seen: Bool) {
        reads.seenEdits += 1
        let wanted = Set(ids)
        var changed = 0, changedInFilter = 0
        for i in messages.indices where wanted.contains(messages[i].messageId) && messages[i].seen != seen {
            messages[i].seen = seen
            changed += 1
            if filter.matches(messages[i]) { changedInFilter += 1 }
        }
        if let o = opened, wanted.contains(o.messageId) { opened?.seen = seen }
        guard changed > 0 else { return }
        if seen {
            setCounts(counts.markingSeen(changed, inFilter: changedInFilter))
        } else {
            setCounts(InboxCounts(total: counts.total, unread: counts.unread + changed, totalFiltered: counts.totalFiltered,
                                  unreadFiltered: counts.unreadFiltered + changedInFilter))
        }
    }

    // MARK: events

    /// Folds a service event into the state; true when something shown changed.
    @discardableResult
    public func handle(_ event: HeraldEvent) -> Bool {
        switch event {
        case .inboxArrived(let externalUserId) where externalUserId == user:
            refresh()
            return false
        case .inboxSeenChanged(let change) where change.externalUserId == user:
            let before = counts
            applySeen(change.messageIds, seen: change.seen)
            return before != counts
        default:
            return false
        }
    }

    /// What `c`/`y` copies: the first link of the open message (or the one under the cursor), else its id.
    public var copyTarget: CopyTarget? {
        guard let message = opened ?? current else { return nil }
        if let link = CopyTarget.firstLink(in: message.body) { return CopyTarget(text: link, what: "link") }
        return CopyTarget(text: message.messageId, what: "message id")
    }


    // MARK: search (`/`, n, N)

    /// The text a search looks in: a message's title, body and topic.
    public func searchText(at i: Int) -> String {
        guard messages.indices.contains(i) else { return "" }
        let m = messages[i]
        return [m.title ?? "", m.body, m.topic ?? ""].joined(separator: " ")
    }

    /// How many loaded messages match the search.
    public var searchMatches: Int { search.count(messages.count, text: searchText(at:)) }

    /// Searches for `query` as it is typed: the cursor goes to the first match from where it is.
    public func setSearch(_ query: String) {
        search.set(query)
        if let at = search.find(from: cursor, count: messages.count, text: searchText(at:)) { moveCursor(to: at) }
    }

    /// `n` / `N`: the next or previous match after the cursor (among the messages loaded); a toast when none.
    public func findNext(backward: Bool = false) {
        guard !search.query.isEmpty else { notify("no search yet: press / to search", level: .info); return }
        let start = backward ? cursor - 1 : cursor + 1
        guard let at = search.find(from: start, count: messages.count, backward: backward, text: searchText(at:)) else {
            notify("no loaded message matches \"\(search.query)\"", level: .info)
            return
        }
        moveCursor(to: at)
    }
}
