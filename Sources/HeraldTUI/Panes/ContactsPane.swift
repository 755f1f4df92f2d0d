import Foundation
import HeraldCore
import HeraldViewModels

/// Pane 1: the address book. Draws `ContactsViewModel` (Suggested block, A–Z list with sections,
/// search with highlighted matches, selection, invitation state per person), the detail of one
/// person; `I` hands the people to the Composer's confirmation. Only the visible rows are read and drawn.
public final class ContactsPane: LivePane {
    public let viewModel: ContactsViewModel
    public let title = "Contacts"
    /// The copy key's way to the clipboard: the view-model's context's.
    public var copier: Copier? { viewModel.context.copier }
    private var list = ListState()
    private var search = TextFieldState()
    /// Where the last layout put the list (below the search line, when there is one) and the search line.
    private var listRect = Rect.zero
    private var searchLine: Rect?
    private var detailScroll = 0
    /// Set when the detail's number cursor moved: the next frame scrolls it into view.
    private var keepNumberInView = false
    private var suggestionsRequested = false
    /// The form `a` and `e` opened, while it is open.
    private var form: ContactForm?

    public init(viewModel: ContactsViewModel) {
        self.viewModel = viewModel
    }

    public var keyContext: KeyContext {
        if viewModel.mergeQuestion != nil || viewModel.conflictQuestion != nil { return .question }
        return viewModel.isSearching || form != nil ? .editor : .contacts
    }
    public var capturesAllKeys: Bool { viewModel.mergeQuestion != nil || viewModel.conflictQuestion != nil }
    /// Hands the terminal to $EDITOR for `E` and the form's ctrl-o (nil: the terminal the view-model's context lends).
    public var suspendTerminal: ((() -> Void) -> Void)?
    public var environment = ProcessInfo.processInfo.environment
    /// Invites these people with what the Composer is set to (the shell opens the Composer's confirmation).
    public var onInvite: ([Int64]) -> Void = { _ in }

    public var hints: [(key: HintKey, label: String)] {
        if form != nil { return [("tab", "next field"), ("ctrl-s", "save"), ("ctrl-o", "$EDITOR"), ("esc", "cancel")] }
        return viewModel.isSearching ? [("enter", "done"), ("esc", "done"), ("↑↓", "history")] : footerHints
    }

    public func didAppear() {
        guard !suggestionsRequested else { return }
        suggestionsRequested = true
        viewModel.warmUpSearch()
        viewModel.loadSuggestions()
    }

    // MARK: layout and drawing

    /// True when the pane shows the list (not an error, the empty address book, or "nobody matches").
    private var showsList: Bool {
        let vm = viewModel
        return vm.loadError == nil && !vm.isAddressBookEmpty && !vm.isLoading && !(vm.count == 0 && !vm.isListing)
    }

    /// Places the list inside the box (below the search line when there is one), scrolls the cursor into view
    /// and tells the view-model which rows are on screen, so that it reads the ones it lacks.
    public func layout(in rect: Rect) {
        let vm = viewModel
        guard rect.width >= 2, rect.height >= 2 else { searchLine = nil; listRect = Rect(x: rect.x, y: rect.y, width: 0, height: 0); return }
        var inside = rect.inset(top: 1, left: 1, bottom: 1, right: 1)       // inside the box
        searchLine = nil
        if vm.isSearching || !vm.query.isEmpty {
            searchLine = Rect(x: inside.x, y: inside.y, width: inside.width, height: 1)
            inside = inside.inset(top: 1)
        }
        listRect = inside
        guard showsList else { return }
        list.count = vm.count
        list.select(vm.cursor)
        list.scrollToCursor(visibleRows: inside.height)
        vm.show(list.offset..<(list.offset + inside.height))
    }

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        let vm = viewModel
        var title = vm.isLoading ? "Contacts — reading…" : "Contacts — \(vm.listing.total) \(vm.listing.query.isEmpty ? "people" : "found")"
        if vm.isListing && !vm.isLoading { title += " · searching…" }
        title += " · by \(vm.sortsByLastName ? "last" : "first") name"
        if !vm.visibleSuggestions.isEmpty { title += " · ★ suggested" }
        if vm.showsDuplicates { title = "Contacts — \(vm.listing.total) who look like one person · = shows everyone" }
        if !vm.selection.isEmpty { title += " · \(vm.selection.count) selected" }
        if let books = vm.bookLine, !vm.showsDuplicates, vm.selection.isEmpty { title += " · " + books }
        if vm.rangeAnchor != nil { title += " · range: move, v selects, esc cancels" }
        canvas.box(rect, style: Style(.borderFocused), title: title)
        let inside = listRect
        if let line = searchLine {
            canvas.put("/", x: line.x, y: line.y, style: Style(.accent, .bold))
            let field = Rect(x: line.x + 2, y: line.y, width: max(0, line.width - 2), height: 1)
            TextFieldView.render(into: &canvas, rect: field, state: &search, focused: vm.isSearching,
                                 placeholder: "words, or name: phone: email: org: status: group: segment: (\"quotes\", -not)")
            if let problem = vm.queryProblem {
                // After the text typed, where the eye already is; the list below keeps the last answer.
                let after = field.x + min(field.width, TerminalWidth.of(search.text) + 2)
                let room = field.x + field.width - after
                if room > 8 { canvas.put(TextFit.truncate(problem, to: room), x: after, y: line.y, style: Style(.error)) }
            }
        }
        if let error = vm.loadError {
            canvas.put(TextFit.truncate(error, to: inside.width - 2), x: inside.x + 1, y: inside.y + 1, style: Style(.error), clip: inside)
        } else if vm.isAddressBookEmpty {
            renderEmpty(into: &canvas, rect: inside)
        } else if vm.isLoading {
            canvas.put("Reading the address book…", x: inside.x + 1, y: inside.y + 1, style: Style(.muted), clip: inside)
        } else if !showsList, vm.showsDuplicates {
            canvas.put(TextFit.truncate("Nobody looks like anybody else: no likely duplicates. = or esc shows everyone.", to: inside.width - 2),
                       x: inside.x + 1, y: inside.y + 1, style: Style(.muted), clip: inside)
        } else if !showsList {
            canvas.put(TextFit.truncate("Nobody matches \"\(vm.query)\". Esc clears the search.", to: inside.width - 2),
                       x: inside.x + 1, y: inside.y + 1, style: Style(.muted), clip: inside)
        } else {
            renderList(into: &canvas, rect: inside)
        }
        if let detail = vm.detail { renderDetail(detail, into: &canvas, rect: rect) }
        if let plan = vm.mergeQuestion { renderMerge(plan, into: &canvas, rect: rect) }
        if let conflict = vm.conflictQuestion { renderConflict(conflict, into: &canvas, rect: rect) }
        if form != nil { ContactFormView.render(&form!, into: &canvas, area: rect) }
    }

    /// The merge's preview: who is kept, who goes, and every number and email the kept one ends with.
    private func renderMerge(_ plan: MergePreview, into canvas: inout Canvas, rect: Rect) {
        var lines = ["Keep \(plan.kept) and merge into it:"]
        lines += plan.removed.map { "  \($0)" }
        lines.append("")
        lines += plan.phones.map { "  phone  \($0)" }
        lines += plan.emails.map { "  email  \($0)" }
        if plan.leftOut > 0 { lines.append("  \(plan.leftOut) over a contact's limits are left out") }
        lines.append("Invitations of everyone stay with the merged person.")
        let room = max(3, rect.height - 8)
        if lines.count > room { lines = Array(lines.prefix(room - 1)) + ["  …"] }
        ModalView.render(into: &canvas, area: rect, title: "Merge \(plan.ids.count) people", lines: lines, buttons: ["Merge (y)", "Cancel (esc)"])
    }

    private func renderConflict(_ conflict: ConflictQuestion, into canvas: inout Canvas, rect: Rect) {
        var lines = ["\(conflict.name) (book \(conflict.book)) changed here and on the server.", "", "Herald's version has:"]
        lines += conflict.mine.isEmpty ? ["  (nothing the server's lacks)"] : conflict.mine.map { "  \($0)" }
        lines += ["The server's version (shown now) has:"]
        lines += conflict.theirs.isEmpty ? ["  (nothing Herald's lacks)"] : conflict.theirs.map { "  \($0)" }
        if conflict.more > 0 { lines += ["", "\(counted(conflict.more, "more conflict")) after this one."] }
        let room = max(3, rect.height - 8)
        if lines.count > room { lines = Array(lines.prefix(room - 1)) + ["  …"] }
        ModalView.render(into: &canvas, area: rect, title: "Settle a conflict", lines: lines,
                         buttons: ["Keep Herald's (h)", "Keep the server's (s)", "Later (esc)"])
    }

    private func renderEmpty(into canvas: inout Canvas, rect: Rect) {
        let lines = ["Your address book is empty.", "",
                     "Import your contacts (vCard .vcf, CSV, or a vdir folder), then start Herald again:", "",
                     "    herald contacts import FILE", "",
                     "Or look around with generated people:  herald --demo"]
        for (i, line) in lines.enumerated() where i + 1 < rect.height {
            canvas.put(TextFit.truncate(line, to: rect.width - 2), x: rect.x + 1, y: rect.y + 1 + i,
                       style: Style(i == 0 ? .title : (line.hasPrefix("    ") ? .accent : .text)), clip: rect)
        }
    }

    /// Column widths: gutter (section letter), mark, name, number, state.
    static func columns(width: Int) -> (name: Int, number: Int, state: Int) {
        let state = 16, number = width >= 70 ? 19 : 0
        return (max(4, width - 4 - number - state - 2), number, state)
    }

    private func renderList(into canvas: inout Canvas, rect: Rect) {
        let vm = viewModel
        let offset = list.offset
        let rows = vm.rows(in: offset..<(offset + rect.height))
        let suggestions = vm.visibleSuggestions.count
        let cols = Self.columns(width: rect.width)
        ListView.render(into: &canvas, rect: rect, state: &list) { canvas, rowRect, context in
            let i = context.index - offset
            guard i >= 0, i < rows.count else { return }
            let base = context.style
            guard let row = rows[i] else {
                canvas.put("…", x: rowRect.x + 4, y: rowRect.y, style: Style(.muted, background: .backgroundOf(base.role)))
                return
            }
            var x = rowRect.x
            // gutter: ★ for suggestions, the section letter on a section's first (or the top) row
            if context.index < suggestions {
                canvas.put("★", x: x, y: rowRect.y, style: Style(.accent, background: context.isCursor ? .backgroundOf(base.role) : nil))
            } else if let section = row.section, row.startsSection || i == 0 || context.index == suggestions {
                canvas.put(section, x: x, y: rowRect.y, style: Style(.title, .bold, background: context.isCursor ? .backgroundOf(base.role) : nil))
            }
            x += 2
            let selected = row.personId.map { vm.selection.contains($0) } ?? false
            let inRange = vm.isInRange(context.index)
            // On the cursor row the mark takes the cursor row's own colours: an accent colour could equal the
            // selection background (high-contrast) and vanish.
            let markStyle = context.isCursor ? Style(base.role, .bold)
                : selected ? Style(.accent, .bold, background: .backgroundOf(base.role)) : Style(.muted, background: .backgroundOf(base.role))
            canvas.put(inRange ? "▌" : selected ? "●" : "·", x: x, y: rowRect.y, style: inRange && !context.isCursor ? Style(.accent, .bold) : markStyle)
            x += 2
            Self.drawName(row, into: &canvas, x: x, y: rowRect.y, width: cols.name, base: base)
            x += cols.name + 1
            if cols.number > 0 {
                canvas.put(TextFit.pad(row.shownNumber, to: cols.number), x: x, y: rowRect.y,
                           style: Style(.muted, background: .backgroundOf(base.role)), clip: rowRect)
                x += cols.number + 1
            }
            canvas.put(TextFit.pad(row.badge.text, to: cols.state), x: x, y: rowRect.y,
                       style: Style(Self.role(for: row.badge), background: .backgroundOf(base.role)), clip: rowRect)
        }
    }

    /// The name with the search matches in the highlight style.
    static func drawName(_ row: ContactRow, into canvas: inout Canvas, x: Int, y: Int, width: Int, base: Style) {
        let shown = TextFit.truncate(row.name, to: width)
        var column = x
        for (index, character) in shown.enumerated() {
            let matched = row.matches.contains { $0.contains(index) }
            let style = matched ? Style(.highlight, .bold) : base
            column = canvas.put(String(character), x: column, y: y, style: style,
                                clip: Rect(x: x, y: y, width: width, height: 1))
        }
    }

    static func role(for badge: InvitationBadge) -> Role {
        if badge.total == 0 { return .muted }
        switch badge.state {
        case .invited: return .statusDelivered
        case .pending: return .statusPending
        case .impossible: return .statusFailed
        case .notInvited: return .muted
        }
    }

    private func renderDetail(_ detail: PersonDetailView, into canvas: inout Canvas, rect: Rect) {
        let box = rect.inset(top: 1, left: 2, bottom: 1, right: 2)
        canvas.fill(box, style: Style(.modal))
        let inside = canvas.box(box, style: Style(.borderFocused), characters: .rounded, title: detail.name).inset(left: 1, right: 1)
        let lines = detail.lines + viewModel.conversationLines
        // The number under the cursor (when there is a choice) is highlighted and kept in view.
        let numberLines = detail.numberLines
        let cursorLine = detail.numbers.count > 1 && numberLines.indices.contains(viewModel.detailNumber)
            ? numberLines[viewModel.detailNumber] : nil
        if let cursorLine, keepNumberInView {
            if cursorLine < detailScroll { detailScroll = cursorLine }
            if cursorLine + 1 >= detailScroll + inside.height { detailScroll = cursorLine + 2 - inside.height }
            keepNumberInView = false
        }
        detailScroll = max(0, min(detailScroll, max(0, lines.count - inside.height)))
        for (row, line) in lines.dropFirst(detailScroll).prefix(inside.height).enumerated() {
            let heading = line == "Numbers" || line.hasPrefix("Suggested") || line.hasPrefix("Bulks") || line.hasPrefix("Conversation (")
                || line.hasPrefix("Fields (")
            let onCursor = detailScroll + row == cursorLine
            let style = onCursor ? Style(.selection) : Style(heading ? .title : .modal)
            if onCursor { canvas.fill(Rect(x: inside.x, y: inside.y + row, width: inside.width, height: 1), style: style) }
            canvas.put(TextFit.truncate(line, to: inside.width), x: inside.x, y: inside.y + row, style: style, clip: inside)
        }
    }

    // MARK: keys

    public var bindings: [PaneBinding] {
        let vm = viewModel
        if vm.mergeQuestion != nil {
            return [PaneBinding(.yes, footer: "merge") { vm.confirmMerge() },
                    PaneBinding(.pressButton) { vm.confirmMerge() },
                    PaneBinding(.no, footer: "cancel") { vm.cancelMerge() }]
                + PaneBinding.each([.back, .quit]) { vm.cancelMerge() }
        }
        if vm.conflictQuestion != nil {
            return [PaneBinding(.keepMine, footer: "keep Herald's") { vm.settleConflict(keepMine: true) },
                    PaneBinding(.keepTheirs, footer: "keep the server's") { vm.settleConflict(keepMine: false) }]
                + PaneBinding.each([.no, .back, .quit]) { vm.cancelConflict() }
        }
        if form != nil { return PaneBinding.contactForm { self.formKey($0) } }
        if vm.isSearching {
            return PaneBinding.each([.back, .finishEditing]) { vm.endSearch() } + [
                PaneBinding(.earlierSearch) { if let text = vm.recallSearch(-1) { self.search.setText(text) } },
                PaneBinding(.laterSearch) { if let text = vm.recallSearch(1) { self.search.setText(text) } },
            ]
        }
        if vm.detail != nil {
            let several = vm.detail?.numbers.count ?? 0 > 1
            return [
                PaneBinding(.moveDown, footer: several ? "next number" : nil) {
                    if vm.moveDetailNumber(by: 1) { self.keepNumberInView = true } else { self.detailScroll += 1 }
                },
                PaneBinding(.moveUp) {
                    if vm.moveDetailNumber(by: -1) { self.keepNumberInView = true } else { self.detailScroll = max(0, self.detailScroll - 1) }
                },
            ] + declaredInFooterOrder + [PaneBinding(.quit) { self.closeDetail() }]
              + PaneBinding.each([.pageDown, .halfPageDown]) { self.detailScroll += 10 }
              + PaneBinding.each([.pageUp, .halfPageUp]) { self.detailScroll = max(0, self.detailScroll - 10) }
        }
        return declaredInFooterOrder + navigation.bindings
    }

    /// The declared keys the pane lists now (`keys`), in the footer's order (`footerOrder`; the others after, in
    /// their own order).
    private var declaredInFooterOrder: [PaneBinding] {
        declaredBindings.enumerated()
            .sorted { a, b in
                let ra = Self.footerOrder.firstIndex(of: a.element.action) ?? Int.max
                let rb = Self.footerOrder.firstIndex(of: b.element.action) ?? Int.max
                return (ra, a.offset) < (rb, b.offset)
            }
            .map(\.element)
    }

    /// True while a person's detail is open (the keys below then do what the detail offers).
    fileprivate var inDetail: Bool { viewModel.detail != nil }

    /// A list key's footer label: none while a range is marked, when the footer is about the range.
    fileprivate func listFooter(_ label: String) -> String? { viewModel.rangeAnchor != nil ? nil : label }

    fileprivate func closeDetail() { viewModel.closeDetail(); detailScroll = 0 }

    /// The list's movement keys and wheel.
    private var navigation: ListNavigation {
        let vm = viewModel
        let page = max(1, listRect.height)
        return ListNavigation(page: max(1, page - 1), halfPage: page / 2, move: { vm.moveCursor(by: $0) },
                              first: { vm.moveCursor(to: 0) }, last: { vm.moveCursor(to: vm.count - 1) })
    }

    public func handle(unboundKey key: Key) -> Bool {
        let vm = viewModel
        if form != nil { formKey(key); return true }
        guard vm.isSearching else { return false }
        if key == .enter || key == .tab { vm.endSearch(); return true }
        guard search.handle(key) else { return false }
        vm.setQuery(search.text)
        return true
    }

    /// `a`: the form of a new contact (with its Book row when there are address books).
    private func addContact() {
        form = ContactForm(card: ContactDraft().newCardText(books: viewModel.bookNames), personId: nil, books: viewModel.bookNames)
    }

    /// `e`: the form of the person under the cursor (or open).
    private func editContact() {
        viewModel.withCard { id, card in
            self.form = ContactForm(card: card, personId: id, books: self.viewModel.bookNames)
        }
    }

    /// `E`: the person under the cursor (or open) as a card in $EDITOR; stored when it reads.
    private func editContactInEditor() {
        viewModel.withCard { id, card in
            self.runCardEditor(card, name: "contact-\(id)") { self.viewModel.save($0, personId: id) }
        }
    }

    /// A key for the open form: saving stores the draft and closes it; ctrl-o goes on in $EDITOR with what was typed.
    private func formKey(_ key: Key) {
        guard var open = form else { return }
        let outcome = open.handle(key)
        form = open
        switch outcome {
        case .none: break
        case .cancel:
            form = nil
            viewModel.notify("nothing changed", level: .info)
        case .save(let draft):
            form = nil
            viewModel.save(draft, personId: open.personId)
        case .openEditor(let card):
            form = nil
            runCardEditor(card, name: open.personId.map { "contact-\($0)" } ?? "new-contact") {
                self.viewModel.save($0, personId: open.personId)
            }
        }
    }

    /// Opens `card` in the person's editor (the terminal handed over meanwhile); a card with problems opens again
    /// with them on top. A card given up on is kept in a file, and the toast says where and what is wrong.
    private func runCardEditor(_ card: String, name: String, save: (ContactDraft) -> Void) {
        guard let suspend = suspendTerminal ?? viewModel.context.terminal.suspend else {
            viewModel.notify("no terminal to hand to $EDITOR here")
            return
        }
        do {
            switch try ContactCardEditor.edit(card, environment: environment, suspend: suspend) {
            case .cancelled: viewModel.notify("nothing changed", level: .info)
            case .edited(let draft): save(draft)
            case .refused(let kept, let problems):
                let keptIn: String
                switch ContactCardEditor.keep(kept, name: name) {
                case .success(let url): keptIn = " (the card is kept in \(url.path))"
                case .failure(let error): keptIn = " (the card could not be kept: \(error.localizedDescription))"
                }
                viewModel.notify("not stored: \(problems.problems.first?.description ?? "")\(keptIn)", level: .error)
            }
        } catch {
            viewModel.notify(error.description, level: .error)
        }
    }

    /// `I`: the selection (or the person under the cursor) goes to the Composer's confirmation.
    func invite() {
        let ids = viewModel.targets()
        guard !ids.isEmpty else { viewModel.notify("nobody to invite: select people with space"); return }
        onInvite(ids)
    }

    public func handle(mouse: MouseEvent) -> Bool {
        let vm = viewModel
        if vm.detail != nil {
            switch mouse.kind {
            case .wheelDown: detailScroll += 3
            case .wheelUp: detailScroll = max(0, detailScroll - 3)
            case .click, .rightClick: return false
            }
            return true
        }
        if navigation.scroll(mouse) { return true }
        guard let row = ListNavigation.row(at: mouse, in: listRect, offset: list.offset) else { return false }
        vm.moveCursor(to: row)
        if mouse.kind == .rightClick { vm.toggleSelection() }      // a right click also selects the row
        return true
    }

    /// `:search TEXT`: shows only the people matching `text`.
    func showMatches(of text: String) {
        viewModel.setQuery(text)
        search.setText(text)
    }

    /// `:group`, `:segment`: the list of the people matching `text`, leaving a person's detail for it.
    func showList(matching text: String) {
        if inDetail { closeDetail() }
        showMatches(of: text)
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool { viewModel.handle(event: serviceEvent) }
}

extension ContactsPane: KeyDeclaring {
    /// Where the footer shows the keys that have a label, in the list and in a person's detail (the table keeps its
    /// own order, `keys`'): a key missing here shows after these.
    nonisolated static let footerOrder: [Action] = [.search, .select, .selectAll, .invite, .open, .sort, .selectRange, .addContact,
                                        .editContact, .mergeContacts, .duplicates, .settleConflict, .back]

    private nonisolated static let inList: @MainActor @Sendable (ContactsPane) -> Bool = { !$0.inDetail }

    /// Contacts' keys, each whole: first the actions the key table shares with other panes (their rows stay in
    /// `KeyBindings.table`), given this pane's handlers and footers; then its own, in the order of the key table,
    /// `?` and docs/keys.md. Each chooses inside what it does in the list and in a person's detail.
    public nonisolated static let keys: [PaneKey<ContactsPane>] = [
        .shared(.search, in: .contacts, footerNow: { $0.listFooter("search") }, listed: inList) { pane in
            let vm = pane.viewModel
            if vm.showsDuplicates { vm.toggleDuplicates() }
            vm.beginSearch(); vm.setQuery(""); pane.search.setText("")
        },
        .shared(.select, in: .contacts, footerNow: { pane in
            pane.inDetail ? (pane.viewModel.detail?.numbers.count ?? 0 > 1 ? "invite this number" : nil) : pane.listFooter("select")
        }) { pane in
            if pane.inDetail { pane.viewModel.chooseDetailNumber() } else { pane.viewModel.toggleSelection(); pane.viewModel.moveCursor(by: 1) }
        },
        .shared(.open, in: .contacts, footerNow: { $0.inDetail ? nil : $0.listFooter("detail") }) { pane in
            if pane.inDetail { pane.closeDetail() } else { pane.viewModel.openDetail(); pane.detailScroll = 0 }
        },
        .sharedDeclining(.back, in: .contacts, footerNow: { pane in
            let vm = pane.viewModel
            if pane.inDetail { return "back" }
            return vm.rangeAnchor != nil ? "cancel" : vm.showsDuplicates ? "everyone" : vm.query.isEmpty ? nil : "clear search"
        }, run: { pane in
            let vm = pane.viewModel
            if pane.inDetail { pane.closeDetail(); return true }
            if vm.cancelRange() { return true }
            if vm.showsDuplicates { vm.toggleDuplicates(); return true }
            guard !vm.query.isEmpty else { return false }
            vm.clearSearch(); pane.search.setText("")
            return true
        }),
        .shared(.reload, in: .contacts, listed: inList) { $0.viewModel.reload() },
        .shared(.copy, in: .contacts) { $0.copier?.copy($0.viewModel.copyTarget) },
        PaneKey("select_all", [.char("A")], "Select all (shown) rows", [.contacts],
                footerNow: { $0.listFooter("all") }, listed: inList) { $0.viewModel.selectAll() },
        PaneKey("select_none", [.char("D")], "Select none (u brings the selection back)", [.contacts],
                listed: inList) { $0.viewModel.selectNone() },
        PaneKey("invert_selection", [.char("i")], "Invert the selection", [.contacts], listed: inList) {
            $0.viewModel.invertSelection()
        },
        PaneKey("restore_selection", [.char("u")],
                "Undo: bring back the people just deleted, else the selection cleared by select none or invert", [.contacts],
                listed: inList) { $0.viewModel.undo() },
        PaneKey("select_range", [.char("v")],
                "Select a range: v marks where it starts, move, v again selects the rows between (esc cancels)", [.contacts],
                footerNow: { $0.viewModel.rangeAnchor != nil ? "select the range" : nil }, listed: inList) { $0.viewModel.toggleRange() },
        PaneKey("select_by_state", [.char("S")],
                "Select everyone shown who is not invited yet and has a number that takes SMS (:select pending|invited|failed for others)",
                [.contacts], listed: inList) { $0.viewModel.select(.notInvited) },
        PaneKey("sort", [.char("s")], "Sort by first name or by last name", [.contacts],
                footerNow: { $0.listFooter("sort") }, listed: inList) { $0.viewModel.toggleSort() },
        PaneKey("invite", [.char("I")], "Invite the selected people (or the one under the cursor) with what the Composer is set to",
                [.contacts], footerNow: { $0.inDetail ? "invite" : $0.listFooter("invite") }) { $0.invite() },
        PaneKey("add_contact", [.char("a")],
                "Add a contact in a form: a row per field, tab moves, ctrl-s saves, ctrl-o goes on in $EDITOR (its Book row says which address book)",
                [.contacts], footerNow: { $0.listFooter("add") }, listed: inList) { $0.addContact() },
        PaneKey("edit_contact", [.char("e")], "Edit the person under the cursor (or open) in the same form", [.contacts],
                footerNow: { $0.inDetail ? "edit" : $0.listFooter("edit") }) { $0.editContact() },
        PaneKey("edit_contact_in_editor", [.char("E")], "Edit the person under the cursor (or open) as a card in $EDITOR",
                [.contacts]) { $0.editContactInEditor() },
        PaneKey("delete_contact", [.char("x")], "Delete the selected people (or the one under the cursor); u brings them back",
                [.contacts], listed: inList) { $0.viewModel.deleteContacts() },
        PaneKey("merge_contacts", [.char("M")], "Merge the selected people into the first of them, after a preview", [.contacts],
                footerNow: { $0.viewModel.selection.count >= 2 ? $0.listFooter("merge") : nil }, listed: inList) {
            $0.viewModel.askMerge()
        },
        PaneKey("settle_conflict", [.char("C")],
                "Settle the next card changed both here and on its CardDAV server (the title counts them)", [.contacts],
                footerNow: { $0.viewModel.bookLine?.contains("to settle") == true ? "settle conflict" : nil }, listed: inList) {
            $0.viewModel.askConflict()
        },
        PaneKey("opt_out", [.char("O")],
                "Opt out the numbers of the selected people (or the one under the cursor): no invitation goes to them; again takes them off the list",
                [.contacts], listed: inList) { $0.viewModel.toggleOptOut() },
        PaneKey("tag_contacts", [.char("t")],
                "Put the selected people (or the one under the cursor or open) in a group: asks its name (:tag -NAME takes out)",
                [.contacts], footerNow: { $0.inDetail ? "tag" : $0.listFooter("tag") }) { $0.viewModel.askTag() },
        PaneKey("duplicates", [.char("=")],
                "Show only the people who look like one person (same number, email or name); again shows everyone", [.contacts],
                footerNow: { $0.viewModel.showsDuplicates ? "everyone" : nil }, listed: inList) { $0.viewModel.toggleDuplicates() },
    ]
}
