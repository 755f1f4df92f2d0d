import Foundation
import HeraldCore
import HeraldViewModels

/// The Inbox pane: whose inbox and the filter on top, the messages (unread marked) with counts,
/// and the opened message below. `u` edits the user, `d` the date range, `t` cycles the topic.
public final class InboxPane: LivePane {
    public let model: InboxViewModel
    public let title = "Inbox"
    /// The copy key's way to the clipboard: the view-model's context's.
    public var copier: Copier? { model.context.copier }
    private var list = ListState()
    private var listRect = Rect.zero
    private var editing: Editing?
    private var started = false
    /// True while the Inbox is the focused pane: it then reads its first page again every
    /// `refreshInterval`, so a message pushed meanwhile (by anyone) shows within about a second.
    private var visible = false
    private var lastRefresh: Date?
    public var refreshInterval: TimeInterval = 1
    private let dayFormatter: DateFormatter

    /// The field being typed in, if any.
    private enum Editing {
        case user(TextFieldState)
        case dates(from: TextFieldState, to: TextFieldState, onTo: Bool, problem: String?)
    }

    private let clock: any HeraldClock

    public init(model: InboxViewModel, timeZone: TimeZone = .current, clock: any HeraldClock = SystemClock()) {
        self.model = model
        self.clock = clock
        dayFormatter = DateFormatter()
        dayFormatter.locale = Locale(identifier: "en_US_POSIX")
        dayFormatter.timeZone = timeZone
        dayFormatter.dateFormat = "yyyy-MM-dd HH:mm"
    }

    public var keyContext: KeyContext { editing == nil && !finder.typing ? .inbox : .editor }
    /// The `/` field.
    private var finder = ListFinder()
    /// The open message's scroll (first line shown), its wrapped length and the rows it has, as last drawn.
    private var readerScroll = 0
    private var readerLineCount = 0
    private var readerHeight = 1
    private var readerMessageId: String?

    public var hints: [(key: HintKey, label: String)] {
        editing != nil ? [("enter", "apply"), ("tab", "next field"), ("esc", "cancel")] : footerHints
    }

    // MARK: layout and drawing

    /// Where the parts of the pane go inside `rect`: the filter and counts lines, the list (nil when a problem or
    /// an empty inbox stands in its place), the search line under it, and the open message.
    private struct Parts {
        var filter = Rect.zero, counts = Rect.zero, body = Rect.zero, divider: Rect?, message: Rect?
        var list: Rect?, finder: Rect?
    }

    private func parts(in rect: Rect) -> Parts? {
        guard rect.width >= 2, rect.height >= 2 else { return nil }
        let inside = rect.inset(top: 1, left: 1, bottom: 1, right: 1)
        guard inside.width > 4, inside.height > 3 else { return nil }
        let rows = Layout.rows(inside, [.fixed(1), .fixed(1), .flex(1)])
        var parts = Parts(filter: rows[0], counts: rows[1], body: rows[2])
        if model.opened != nil {
            let split = Layout.rows(parts.body, [.percent(40), .fixed(1), .flex(1)])
            parts.body = split[0]
            parts.divider = split[1]
            parts.message = split[2]
        }
        guard model.problem == nil, !model.messages.isEmpty else { return parts }
        var list = parts.body
        if finder.typing || !model.search.query.isEmpty {
            parts.finder = Rect(x: list.x, y: list.maxY - 1, width: list.width, height: 1)
            list = list.inset(bottom: 1)
        }
        parts.list = list
        return parts
    }

    /// Places the list and asks for the next page when the first one does not fill a tall window.
    public func layout(in rect: Rect) {
        let list = parts(in: rect)?.list
        listRect = list ?? Rect(x: rect.x, y: rect.y, width: 0, height: 0)
        guard let list else { return }
        if model.hasMore && model.messages.count < list.height { model.loadMore() }
        self.list.count = model.messages.count
        self.list.select(model.cursor)
    }

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        canvas.box(rect, style: Style(.borderFocused), title: "Inbox — " + TerminalSafeText.sanitize(model.user))
        guard let parts = parts(in: rect) else { return }
        renderFilterLine(into: &canvas, rect: parts.filter)
        renderCountsLine(into: &canvas, rect: parts.counts)
        if let divider = parts.divider, let message = parts.message {
            canvas.horizontalLine(x: divider.x, y: divider.y, length: divider.width)
            renderMessage(into: &canvas, rect: message)
        }
        let body = parts.body
        if let problem = model.problem {
            for (i, line) in WrappedText.lines(TerminalSafeText.sanitize(problem), width: body.width - 2).prefix(body.height).enumerated() {
                canvas.put(line, x: body.x + 1, y: body.y + i, style: Style(.error), clip: body)
            }
            return
        }
        guard let list = parts.list else {
            let text = model.isLoading ? "Loading the inbox…" : (model.filter.isFiltering ? "No message matches the filter (t topic, d dates)." : "This inbox is empty.")
            canvas.put(TextFit.truncate(text, to: body.width - 2), x: body.x + 1, y: body.y, style: Style(.muted), clip: body)
            return
        }
        if let row = parts.finder {
            finder.render(into: &canvas, row: row, query: model.search.query, matches: model.searchMatches)
        }
        renderList(into: &canvas, rect: list)
    }

    private func renderFilterLine(into canvas: inout Canvas, rect: Rect) {
        switch editing {
        case .user(var field):
            let x = canvas.put("User: ", x: rect.x, y: rect.y, style: Style(.title), clip: rect)
            TextFieldView.render(into: &canvas, rect: Rect(x: x, y: rect.y, width: rect.maxX - x, height: 1), state: &field,
                                 placeholder: "external user id")
            editing = .user(field)
        case .dates(var from, var to, let onTo, let problem):
            var x = canvas.put("From: ", x: rect.x, y: rect.y, style: Style(.title), clip: rect)
            TextFieldView.render(into: &canvas, rect: Rect(x: x, y: rect.y, width: 17, height: 1), state: &from,
                                 focused: !onTo, placeholder: "2024-05-01")
            x = canvas.put("  To: ", x: x + 17, y: rect.y, style: Style(.title), clip: rect)
            TextFieldView.render(into: &canvas, rect: Rect(x: x, y: rect.y, width: 17, height: 1), state: &to,
                                 focused: onTo, placeholder: "(now)")
            if let problem {
                canvas.put(" " + TextFit.truncate(problem, to: max(0, rect.maxX - x - 19)), x: x + 17, y: rect.y, style: Style(.error), clip: rect)
            }
            editing = .dates(from: from, to: to, onTo: onTo, problem: problem)
        case nil:
            let topic = model.filter.topic.map { TerminalSafeText.sanitize($0) } ?? "all"
            var dates = "any time"
            if model.filter.from != nil || model.filter.to != nil {
                dates = (model.fromText.isEmpty ? "…" : model.fromText) + " → " + (model.toText.isEmpty ? "now" : model.toText)
            }
            let text = "Topic: \(topic)   Dates: \(dates)"
            canvas.put(TextFit.truncate(text, to: rect.width), x: rect.x, y: rect.y, style: .text, clip: rect)
        }
    }

    private func renderCountsLine(into canvas: inout Canvas, rect: Rect) {
        var text = model.countsSummary
        if model.isLoading { text += "  · loading…" }
        if model.fromCache { text += "  · offline: from the local cache" }
        let x = canvas.put(TextFit.truncate(text, to: rect.width), x: rect.x, y: rect.y, style: Style(.muted), clip: rect)
        if let problem = model.refreshProblem, x + 4 < rect.maxX {
            canvas.put(TextFit.truncate("  · " + TerminalSafeText.sanitize(problem), to: rect.maxX - x), x: x, y: rect.y,
                       style: Style(.warning), clip: rect)
        }
    }

    private func renderList(into canvas: inout Canvas, rect: Rect) {
        let messages = model.messages
        let formatter = dayFormatter
        ListView.render(into: &canvas, rect: rect, state: &list, focused: editing == nil) { canvas, rowRect, row in
            let m = messages[row.index]
            let unread = !m.seen
            let base = unread ? row.style.adding(.bold) : row.style
            let markStyle = row.isCursor ? Style(.accent, .bold).on(.backgroundOf(row.style.role)) : Style(.accent, .bold)
            var x = canvas.put(unread ? " ● " : "   ", x: rowRect.x, y: rowRect.y, style: markStyle, clip: rowRect)
            x = canvas.put(formatter.string(from: m.sendDateTime) + "  ", x: x, y: rowRect.y, style: row.isCursor ? base : Style(.muted), clip: rowRect)
            if let topic = m.topic {
                x = canvas.put(TextFit.pad("[" + TerminalSafeText.sanitize(topic) + "]", to: 10) + " ", x: x, y: rowRect.y, style: base, clip: rowRect)
            }
            var summary = TerminalSafeText.sanitize(m.title ?? "")
            let body = TerminalSafeText.sanitize(m.body)
            summary = summary.isEmpty ? body : summary + " — " + body
            canvas.put(TextFit.truncate(summary, to: max(0, rowRect.maxX - x)), x: x, y: rowRect.y, style: base, clip: rowRect)
        }
    }

    private func renderMessage(into canvas: inout Canvas, rect: Rect) {
        guard let m = model.opened, !rect.isEmpty else { return }
        let area = rect.inset(left: 1, right: 1)
        var y = area.y
        if m.messageId != readerMessageId { readerMessageId = m.messageId; readerScroll = 0 }
        let title = TerminalSafeText.sanitize(m.title ?? "(no title)")
        canvas.put(TextFit.truncate(title, to: area.width), x: area.x, y: y, style: Style(.title, .bold), clip: area)
        y += 1
        var meta = dayFormatter.string(from: m.sendDateTime)
        if let topic = m.topic { meta += " · " + TerminalSafeText.sanitize(topic) }
        meta += m.seen ? " · seen" : " · unread"
        canvas.put(TextFit.truncate(meta + " · esc closes", to: area.width), x: area.x, y: y, style: Style(.muted), clip: area)
        y += 2
        let lines = WrappedText.lines(TerminalSafeText.sanitize(m.body, singleLine: false), width: area.width)
        readerHeight = max(1, area.maxY - y)
        readerScroll = max(0, min(readerScroll, lines.count - readerHeight))
        let below = lines.count - readerScroll - readerHeight
        // The last row says more follows (and how to read on) instead of a line the reader would miss.
        let shown = below > 0 ? readerHeight - 1 : readerHeight
        for line in lines.dropFirst(readerScroll).prefix(shown) {
            canvas.put(line, x: area.x, y: y, style: .text, clip: area)
            y += 1
        }
        readerLineCount = lines.count
        canvas.markLinks(in: Rect(x: area.x, y: area.y, width: area.width, height: max(0, y - area.y)))   // links in the body
        if below > 0 {
            let more = "▼ \(below + 1) more line\(below + 1 == 1 ? "" : "s") below · space reads on · G goes to the end"
            canvas.put(TextFit.truncate(more, to: area.width), x: area.x, y: y, style: Style(.muted), clip: area)
        }
    }

    /// Scrolls the open message by `lines` (clamped when drawn).
    private func scrollReader(by lines: Int) {
        readerScroll = max(0, min(readerScroll + lines, max(0, readerLineCount - 1)))
    }

    // MARK: input

    public var bindings: [PaneBinding] {
        let model = self.model
        if editing != nil {
            return PaneBinding.each([.finishEditing, .back]) { self.editing = nil }
                + PaneBinding.each([.nextPane, .previousPane]) {
                    if case .dates(let from, let to, let onTo, let problem) = self.editing {
                        self.editing = .dates(from: from, to: to, onTo: !onTo, problem: problem)
                    }
                }
        }
        if finder.typing {
            return PaneBinding.each([.back, .finishEditing]) { self.finder.end() }
        }
        let always = [
            PaneBinding(.open, footer: "open") { model.openCurrent() },
        ] + declaredBindings + [
            PaneBinding(.select) { model.openCurrent() },
            PaneBinding(.search) { self.finder.begin() },
            PaneBinding(.nextMatch) { model.findNext() },
            PaneBinding(.previousMatch) { model.findNext(backward: true) },
            PaneBinding(.reload) { model.reload() },
            PaneBinding(.copy) { self.copier?.copy(model.copyTarget) },
            // Esc clears a search first; then it, and q, close an open message; with none open q quits.
            PaneBinding.declining(.back) {
                if model.opened == nil && !model.search.query.isEmpty { model.setSearch(""); return true }
                return model.closeMessage()
            },
            PaneBinding.declining(.quit) { model.closeMessage() },
        ]
        if model.opened != nil {
            // An open message: the movement keys scroll it.
            let height = readerHeight
            return always + ListNavigation(page: max(1, height - 2), halfPage: max(1, height / 2),
                                           move: { self.scrollReader(by: $0) }, first: { self.readerScroll = 0 },
                                           last: { self.readerScroll = self.readerLineCount }).bindings
        }
        return always + navigation.bindings
    }

    /// The list's movement keys and wheel.
    private var navigation: ListNavigation {
        let model = self.model
        return ListNavigation(page: max(1, listRect.height - 1), move: { model.moveCursor(to: model.cursor + $0) },
                              first: { model.moveCursor(to: 0) }, last: { model.moveCursor(to: model.messages.count - 1) })
    }

    public func handle(unboundKey key: Key) -> Bool {
        switch editing {
        case .user(var field):
            if key == .enter {
                editing = nil
                model.setUser(field.text)
                return true
            }
            let used = field.handle(key)
            editing = .user(field)
            return used
        case .dates(var from, var to, let onTo, _):
            if key == .enter {
                if let problem = model.setDateRange(from: from.text, to: to.text) {
                    editing = .dates(from: from, to: to, onTo: onTo, problem: problem)
                } else {
                    editing = nil
                }
                return true
            }
            let used = onTo ? to.handle(key) : from.handle(key)
            editing = .dates(from: from, to: to, onTo: onTo, problem: nil)
            return used
        case nil:
            if finder.typing {
                let typed = finder.type(key)
                if let query = typed.query { model.setSearch(query) }
                return typed.handled
            }
            return false
        }
    }

    public func handle(mouse: MouseEvent) -> Bool {
        if navigation.scroll(mouse) { return true }
        guard mouse.kind == .click, let index = ListNavigation.row(at: mouse, in: listRect, offset: list.offset) else { return false }
        if index == model.cursor { model.openCurrent() } else { model.moveCursor(to: index) }
        return true
    }

    public var capturesAllKeys: Bool { editing != nil }

    public func didAppear() {
        visible = true
        lastRefresh = clock.now()
        start()
    }

    public func didDisappear() { visible = false }

    public func nextDeadline() -> Date? {
        guard visible, started, let lastRefresh else { return nil }
        return lastRefresh.addingTimeInterval(refreshInterval)
    }

    public func tick(now: Date) -> Bool {
        guard visible, started else { return false }
        lastRefresh = now
        model.refresh()
        return false
    }

    /// Loads the inbox the first time (the shell may call it at start for the unread count).
    public func start() {
        guard !started else { return }
        started = true
        model.reload()
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool {
        if case .inboxArrived = serviceEvent, !started { return false }      // read when the inbox is first opened
        let changed = model.handle(serviceEvent)
        // The shell folds inbox events into its own unread count first; this pane knows the real one
        // (its optimistic marks already counted), so it has the last word for its user.
        switch serviceEvent {
        case .inboxSeenChanged(let change) where change.externalUserId == model.user && started:
            model.context.app.setUnreadInbox(model.counts.unread)
        case .inboxLoaded(let loaded) where loaded.externalUserId == model.user && started:
            model.context.app.setUnreadInbox(model.counts.unread)
        default: break
        }
        return changed
    }

    /// `:user ID`: reads that user's inbox.
    func read(user id: String) {
        started = true
        editing = nil
        model.setUser(id)
    }
}

extension InboxPane: KeyDeclaring {
    /// The Inbox's own keys, each whole, in the footer's order (`/`, n, N and c are shared with other panes and stay
    /// in `KeyBindings.table`; r, space and b are more keys for reload and the list's movement).
    public nonisolated static let keys: [PaneKey<InboxPane>] = [
        PaneKey("mark_seen", [.char("m")], "Mark the message seen", [.inbox], footer: "seen") { $0.model.markCurrentSeen() },
        PaneKey("mark_unread", [.char("U")], "Mark the message unread (kept unread here until opened again)", [.inbox],
                footer: "unread") { $0.model.markCurrentUnread() },
        PaneKey("topic", [.char("t")], "Choose the topic", [.inbox], footer: "topic") { $0.model.cycleTopic() },
        PaneKey("date_range", [.char("d")], "Choose the date range", [.inbox], footer: "dates") { pane in
            pane.editing = .dates(from: TextFieldState(pane.model.fromText), to: TextFieldState(pane.model.toText), onTo: false, problem: nil)
        },
        PaneKey("choose_user", [.char("u")], "Read another user's inbox (external user id)", [.inbox], footer: "user") { pane in
            pane.editing = .user(TextFieldState(pane.model.user))
        },
        PaneKey("clear_topic", [.char("T")], "Show every topic again", [.inbox]) { $0.model.setTopic(nil) },
        PaneKey("mark_all_seen", [.char("A")], "Mark every loaded message read", [.inbox]) { $0.model.markAllSeen() },
        PaneKey("next_message", [.char("J")], "Open the next message", [.inbox]) { $0.model.openNeighbour(forward: true) },
        PaneKey("previous_message", [.char("K")], "Open the previous message", [.inbox]) {
            $0.model.openNeighbour(forward: false)
        },
        .more(.reload, [.char("r")], "Read the inbox again", [.inbox]),
        .more(.pageDown, [.space], "Page down (in an open message: read on)", [.inbox]),
        .more(.pageUp, [.char("b")], "Page up (in an open message: back a page)", [.inbox]),
    ]
}
