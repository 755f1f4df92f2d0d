import Foundation
import HeraldCore
import HeraldViewModels

/// Pane 6, Replies: the conversations of every number that was sent to or answered (newest first, unread replies
/// counted, unknown numbers marked), live as replies come; Enter opens a thread (`ConversationsPane+Thread.swift`),
/// `r` answers it, `a` adds an unknown number to the address book, `m` marks replies seen, `f` shows only unread.
public final class ConversationsPane: LivePane {
    public let viewModel: ConversationsViewModel
    public let title = "Replies"
    let clock: any HeraldClock
    /// The copy key's way to the clipboard: the view-model's context's.
    public var copier: Copier? { viewModel.context.copier }
    private var list = ListState()
    var listRect = Rect.zero
    /// The answer's editor (its text is the view-model's draft).
    var editor = EditorState()
    /// The open thread's scroll: lines above the last screenful (0: the newest at the bottom).
    var threadScroll = 0
    /// Lines of the thread as last drawn, and the rows it had.
    var threadLineCount = 0
    var threadHeight = 1
    /// The contact form `a` opened, while it is open.
    var form: ContactForm?
    /// The question's highlighted button (0 send, 1 cancel).
    var confirmButton = 0

    public init(viewModel: ConversationsViewModel, clock: any HeraldClock = SystemClock()) {
        self.viewModel = viewModel
        self.clock = clock
    }

    public var keyContext: KeyContext {
        if viewModel.confirmation != nil { return .question }
        return viewModel.isWriting || form != nil ? .editor : .replies
    }

    public var capturesAllKeys: Bool { viewModel.confirmation != nil || viewModel.isWriting || form != nil }

    public var quitWarning: String? {
        guard let draft = viewModel.draft, !draft.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return "The answer to \(draft.recipient) is not sent and will be lost."
    }

    public var hints: [(key: HintKey, label: String)] {
        if form != nil { return [("tab", "next field"), ("ctrl-s", "save"), ("esc", "cancel")] }
        return footerHints
    }

    // MARK: drawing

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        let vm = viewModel
        var title = "Replies — " + vm.countsLine
        if vm.filter == .unread { title += " · filter: unread" }
        if vm.isSending { title += " · sending…" }
        let inside = canvas.box(rect, style: Style(.borderFocused), title: title)
        guard inside.width > 10, inside.height > 2 else { return }
        if vm.openNumber != nil {
            renderThread(into: &canvas, rect: inside)
        } else {
            renderList(into: &canvas, rect: inside)
        }
        if let confirmation = vm.confirmation {
            ModalView.render(into: &canvas, area: rect, title: confirmation.title,
                             lines: confirmation.lines.flatMap { WrappedText.lines($0, width: max(20, min(rect.width - 10, 72))) },
                             buttons: ["Send (enter)", "Cancel (esc)"], selectedButton: confirmButton,
                             minWidth: max(20, min(rect.width - 10, 72)))
        }
        if form != nil { ContactFormView.render(&form!, into: &canvas, area: rect) }
    }

    private func renderList(into canvas: inout Canvas, rect: Rect) {
        let vm = viewModel
        let body = rect.inset(left: 1, right: 1)
        if let error = vm.loadError {
            for (i, line) in WrappedText.lines(TerminalSafeText.sanitize(error), width: body.width).prefix(body.height).enumerated() {
                canvas.put(line, x: body.x, y: body.y + i, style: Style(.error), clip: body)
            }
            listRect = .zero
            return
        }
        guard !vm.rows.isEmpty else {
            let text = vm.isLoading ? "Reading the conversations…"
                : vm.filter == .unread ? "No unread replies. f shows every conversation."
                : "No replies yet. When someone answers an invitation, the conversation shows here."
            canvas.put(TextFit.truncate(text, to: body.width), x: body.x, y: body.y, style: Style(.muted), clip: body)
            listRect = .zero
            return
        }
        listRect = rect
        list.count = vm.rows.count
        list.select(vm.cursor)
        let rows = vm.rows, now = clock.now()
        let nameWidth = max(24, min(30, rect.width / 3))        // "+385911234567 (unknown)" whole
        ListView.render(into: &canvas, rect: rect, state: &list) { canvas, rowRect, row in
            let r = rows[row.index]
            let unread = r.unread > 0
            let base = unread ? row.style.adding(.bold) : row.style
            let onCursor = { (role: Role) in row.isCursor ? Style(role, .bold).on(.backgroundOf(row.style.role)) : Style(role, .bold) }
            let mark = unread ? TextFit.pad(" ● \(r.unread)", to: 6) : "      "
            var x = canvas.put(mark, x: rowRect.x, y: rowRect.y, style: onCursor(.accent), clip: rowRect)
            let lit = vm.isLit(r.number, now: now)
            x = canvas.put(TextFit.pad(Self.who(r), to: nameWidth) + " ", x: x, y: rowRect.y,
                           style: lit ? Style(.changed, .bold) : r.name == nil ? (row.isCursor ? base : Style(.warning)) : base, clip: rowRect)
            x = canvas.put(TextFit.pad(WallClock.timeOrDay(r.lastAt, now: now), to: 11) + " ", x: x, y: rowRect.y,
                           style: row.isCursor ? base : Style(.muted), clip: rowRect)
            x = canvas.put(r.lastIsReply ? "← " : "→ ", x: x, y: rowRect.y, style: onCursor(r.lastIsReply ? .accent : .muted), clip: rowRect)
            let text = TerminalSafeText.sanitize(r.lastText)
            canvas.put(TextFit.truncate(text, to: max(0, rowRect.maxX - x)), x: x, y: rowRect.y, style: base, clip: rowRect)
        }
    }

    /// "Ana Horvat", or "+385911234567 (unknown)" for a number nobody in the book has.
    static func who(_ row: ShownConversation) -> String {
        row.name.map { TerminalSafeText.sanitize($0) } ?? "\(TerminalSafeText.sanitize(row.number)) (unknown)"
    }

    // MARK: keys

    public var bindings: [PaneBinding] {
        let vm = viewModel
        if vm.confirmation != nil {
            return [PaneBinding(.pressButton, footer: "send") { if self.confirmButton == 1 { vm.cancelAnswer() } else { vm.confirmAnswer() } },
                    PaneBinding(.yes) { vm.confirmAnswer() },
                    PaneBinding(.no, footer: "cancel") { vm.cancelAnswer() },
                    PaneBinding(.switchButton) { self.confirmButton = 1 - self.confirmButton }]
                + PaneBinding.each([.back, .quit]) { vm.cancelAnswer() }
        }
        if form != nil { return PaneBinding.contactForm { self.formKey($0) } }
        if vm.isWriting {
            return [PaneBinding(.send, footer: "send") { self.confirmButton = 0; vm.requestAnswerConfirmation() },
                    PaneBinding(.finishEditing, footer: "keep for later") { vm.stopWriting() },
                    PaneBinding(.back) { vm.stopWriting() }]
        }
        let inThread = vm.openNumber != nil
        let common: [PaneBinding] = [
            // Enter opens the conversation under the cursor; in a thread it does nothing (esc goes back).
            PaneBinding.declining(.open, footer: inThread ? nil : "open") { inThread ? false : { self.openCurrent(); return true }() },
        ] + declaredBindings + [
            PaneBinding(.reload) { vm.reloadAll() },
            PaneBinding(.copy) { self.copier?.copy(vm.copyTarget) },
            // Esc and q close the open thread; with none open q quits.
            PaneBinding.declining(.back, footer: inThread ? "back" : nil) { vm.closeThread() },
            PaneBinding.declining(.quit) { vm.closeThread() },
        ]
        return common + (inThread ? threadNavigation.bindings : navigation.bindings)
    }

    func openCurrent() {
        threadScroll = 0
        viewModel.openCurrent()
    }

    /// The list's movement keys and wheel.
    private var navigation: ListNavigation {
        let vm = viewModel
        return ListNavigation(page: max(1, listRect.height - 1), move: { vm.moveCursor(by: $0) },
                              first: { vm.moveCursor(to: 0) }, last: { vm.moveCursor(to: vm.rows.count - 1) })
    }

    public func handle(unboundKey key: Key) -> Bool {
        if viewModel.confirmation != nil { return true }          // the question keeps every key
        if form != nil { formKey(key); return true }
        guard viewModel.isWriting else { return false }
        syncEditor()
        guard editor.handle(key) else { return false }
        viewModel.setAnswerText(editor.text)
        return true
    }

    /// The editor shows the view-model's draft (another number's, or one sent meanwhile, starts it again).
    func syncEditor() {
        let text = viewModel.draft?.text ?? ""
        if editor.text != text { editor = EditorState(text) }
    }

    public func handle(mouse: MouseEvent) -> Bool {
        let vm = viewModel
        if vm.openNumber != nil { return threadNavigation.scroll(mouse) }
        if navigation.scroll(mouse) { return true }
        guard mouse.kind == .click, let index = ListNavigation.row(at: mouse, in: listRect, offset: list.offset) else { return false }
        if index == vm.cursor { openCurrent() } else { vm.moveCursor(to: index) }
        return true
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool { viewModel.handle(serviceEvent) }
    public func nextDeadline() -> Date? { viewModel.nextDeadline() }
    public func tick(now: Date) -> Bool { viewModel.tick(now: now) }

    // MARK: the contact form (`a`)

    /// `a`: the form of a new contact with the unknown number filled in.
    func addNumber() {
        guard let number = viewModel.unknownNumber else { return }
        form = ContactForm(card: viewModel.newContactCard(for: number), personId: nil, books: viewModel.bookNames)
    }

    /// A key for the open form: saving stores the draft and closes it.
    private func formKey(_ key: Key) {
        guard var open = form else { return }
        let outcome = open.handle(key)
        form = open
        switch outcome {
        case .none: break
        case .cancel:
            form = nil
        case .save(let draft):
            form = nil
            viewModel.addContact(draft)
        case .openEditor:
            // The form is the one way here: ctrl-o's $EDITOR is Contacts' (E there edits the card whole).
            viewModel.context.toasts.post("$EDITOR is for Contacts' cards (E there); here ctrl-s saves the form", level: .info)
        }
    }
}

extension ConversationsPane: KeyDeclaring {
    /// The Replies pane's own keys, each whole, in the footer's order (Enter, esc, ctrl-r and the copy key are the
    /// table's shared ones).
    public nonisolated static let keys: [PaneKey<ConversationsPane>] = [
        PaneKey("answer", [.char("r")],
                "Answer the conversation: a one-off SMS to its number as written (segment meter, sender warning, confirmation, undo window)",
                [.replies], footer: "answer",
                listed: { $0.viewModel.openNumber != nil || $0.viewModel.current != nil }) { pane in
            pane.confirmButton = 0
            pane.viewModel.beginAnswer()
            pane.syncEditor()
        },
        PaneKey("add_number", [.char("a")], "Add the conversation's unknown number to the address book (the contact form, number filled in)",
                [.replies], footer: "add to book", listed: { $0.viewModel.unknownNumber != nil },
                disabledReason: { $0.viewModel.addNumberProblem }) { $0.addNumber() },
        PaneKey("mark_conversation_seen", [.char("m")], "Mark the conversation's replies seen", [.replies], footer: "seen",
                listed: { pane in
                    let vm = pane.viewModel
                    return vm.openNumber != nil ? vm.threadUnread > 0 : (vm.current?.unread ?? 0) > 0
                }) { $0.viewModel.markCurrentSeen() },
        PaneKey("unread_filter", [.char("f")], "Show only the conversations with unread replies (again: every conversation)",
                [.replies], footerNow: { $0.viewModel.filter == .unread ? "show all" : "unread only" },
                listed: { $0.viewModel.openNumber == nil }) { $0.viewModel.cycleFilter() },
    ]
}
