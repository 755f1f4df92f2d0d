import Foundation
import HeraldCore
import HeraldViewModels

/// Pane 5: bulks of invitations with their counts per status and a segmented progress bar, live;
/// a bulk opened to its recipients; a status filter and the `/` query; the breakdown of what failed and why; the
/// tracker's schedule; resending what failed.
public final class DeliveriesPane: LivePane {
    public let viewModel: DeliveriesViewModel
    public let title = "Deliveries"
    private let clock: any HeraldClock
    /// The copy key's way to the clipboard: the view-model's context's.
    public var copier: Copier? { viewModel.context.copier }
    private var list = ListState()
    private var recipientList = ListState()
    var breakdownList = ListState()
    var groupList = ListState()
    var tableRect = Rect.zero

    public init(viewModel: DeliveriesViewModel, clock: any HeraldClock = SystemClock()) {
        self.viewModel = viewModel
        self.clock = clock
    }

    public var keyContext: KeyContext {
        if viewModel.confirmation != nil { return .question }
        return typingQuery ? .editor : .deliveries
    }
    /// The `/` field, while it is open.
    var queryField = TextFieldState()
    var typingQuery = false
    public var capturesAllKeys: Bool { viewModel.confirmation != nil }

    /// The Bulk column's width: the longest id whole when the pane leaves the message 24 columns, else 10.
    static func idWidth(longest: Int, width: Int) -> Int {
        longest <= width - 56 - 8 - 24 ? longest : 10       // the other fixed columns, the gaps, the message
    }

    static func bulkColumns(idWidth: Int) -> [TableColumn] { [
        TableColumn("Bulk", width: .fixed(idWidth)), TableColumn("Sent", width: .fixed(8)), TableColumn("Message", width: .flex(1)),
        TableColumn("People", width: .fixed(6), alignment: .right), TableColumn("Invited", width: .fixed(7), alignment: .right),
        TableColumn("Pending", width: .fixed(7), alignment: .right), TableColumn("Failed", width: .fixed(6), alignment: .right),
        TableColumn("Progress", width: .fixed(16)), TableColumn("Passes", width: .fixed(6), alignment: .right),
    ] }
    static let recipientColumns = [
        TableColumn("Name", width: .flex(2)), TableColumn("Number", width: .fixed(16)), TableColumn("Status", width: .flex(2)),
        TableColumn("Reason", width: .flex(3)), TableColumn("Price", width: .fixed(13)), TableColumn("Updated", width: .fixed(19)),
    ]

    // MARK: drawing

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        let vm = viewModel
        let now = clock.now()
        // The count is of what the filter shows, and of how many there are when it hides some.
        let shown = vm.visibleBulks.count, all = vm.bulks.count
        var title = "Deliveries — \(counted(shown, "bulk"))\(shown == all ? "" : " of \(all)") · filter: \(vm.filter.rawValue)"
            + " · sort: \(vm.sort.rawValue)"
        if vm.breakdown.isOpen { title += " · breakdown by \(vm.breakdown.dimension.rawValue)" }
        if vm.isResending { title += " · resending…" }
        let inside = canvas.box(rect, style: Style(.borderFocused), title: title)
        canvas.put(TextFit.truncate(vm.trackerLine(now: now), to: inside.width - 1), x: inside.x + 1, y: inside.y, style: Style(.muted), clip: inside)
        var body = inside.inset(top: 1)
        if typingQuery || vm.query.isActive || vm.query.error != nil {
            renderQueryBar(into: &canvas, row: Rect(x: body.x, y: body.maxY - 1, width: body.width, height: 1))
            body = body.inset(bottom: 1)
        }
        tableRect = body
        if vm.breakdown.isOpen {
            renderBreakdown(into: &canvas, rect: body, area: rect, now: now)
        } else if let error = vm.loadError {
            canvas.put(TextFit.truncate(error, to: body.width - 2), x: body.x + 1, y: body.y + 1, style: Style(.error), clip: body)
        } else if let open = vm.openBulk {
            renderRecipients(of: open, into: &canvas, rect: body, now: now)
        } else if vm.isLoading {
            canvas.put("Reading the ledger…", x: inside.x + 1, y: inside.y + 2, style: Style(.muted), clip: inside)
        } else if vm.visibleBulks.isEmpty {
            let text = vm.bulks.isEmpty ? "No invitations sent yet. Select people in Contacts (1) and press I."
                : vm.query.isActive ? "No bulk has a recipient matching the query. Esc clears it."
                : "No bulk has \(vm.filter.rawValue) recipients. Press f to change the filter."
            canvas.put(TextFit.truncate(text, to: body.width - 2), x: body.x + 1, y: body.y + 1, style: Style(.muted), clip: body)
        } else {
            renderBulks(into: &canvas, rect: body, now: now)
        }
        if !vm.breakdown.isOpen, let r = vm.detail, let bulk = vm.openBulk {
            renderDetail(of: r, bulkId: bulk.bulkId, message: bulk.message, into: &canvas, area: rect)
        }
        if vm.showsHistory, let bulk = vm.openBulk {
            let history = vm.bulkHistory
            let lines = history?.failure.map { [$0] } ?? history.map { $0.lines.isEmpty ? ["Nothing recorded for this bulk."] : $0.lines }
                ?? ["Reading the audit trail…"]
            ModalView.render(into: &canvas, area: rect, title: "History of bulk \(bulk.bulkId.prefix(8))",
                             lines: Array(lines.suffix(max(1, rect.height - 6))), buttons: ["Close (esc)"],
                             minWidth: max(20, min(rect.width - 6, 100)))
        }
        if let c = vm.confirmation {
            ModalView.render(into: &canvas, area: rect, title: "Resend", lines: [
                "Send again to \(counted(c.numbers.count, "number")) that failed \(c.what)?",
                "The resend policy skips numbers already invited or on their way.",
            ], buttons: ["Resend (enter)", "Cancel (esc)"])
        }
    }

    private func renderBulks(into canvas: inout Canvas, rect: Rect, now: Date) {
        let vm = viewModel
        let bulks = vm.visibleBulks
        list.count = bulks.count
        list.select(vm.cursor)
        let idWidth = Self.idWidth(longest: vm.longestBulkId, width: rect.width)
        let columns = Self.bulkColumns(idWidth: idWidth)
        TableView.render(into: &canvas, rect: rect, columns: columns, state: &list, cells: { i in
            let b = bulks[i]
            return [String(b.bulkId.prefix(idWidth)), Self.time(b.createdAt, now: now),
                    (vm.selectedBulks.contains(b.bulkId) ? "✓ " : "") + b.shownMessage, "\(b.recipients)", "\(b.invited)",
                    "\(b.pending)", "\(b.impossible)", "", vm.tracker == nil ? "…" : vm.passesLeft(b.bulkId).map(String.init) ?? "done"]
        }, cellStyle: { i, column in
            let b = bulks[i]
            let key: DeliveryColumn? = [4: .invited, 5: .pending, 6: .impossible][column]
            if let key, vm.isHighlighted(b.bulkId, key, now: now) { return Style(.changed, .bold) }
            if column <= 2, vm.isHighlighted(b.bulkId, .row, now: now) { return Style(.changed) }
            switch column {
            case 4: return b.invited > 0 ? Style(.statusDelivered) : nil
            case 5: return b.pending > 0 ? Style(.statusPending) : nil
            case 6: return b.impossible > 0 ? Style(.statusFailed) : nil
            default: return nil
            }
        })
        let frames = TableView.columnFrames(columns, in: rect)
        let bar = frames[7]
        let last = min(bulks.count, list.offset + rect.height - 1)
        guard list.offset < last else { return }
        for index in list.offset..<last {
            let b = bulks[index]
            let y = rect.y + 1 + index - list.offset
            ProgressBarView.render(into: &canvas, rect: Rect(x: bar.x, y: y, width: bar.width, height: 1), segments: [
                ProgressSegment(Double(b.invited), role: .statusDelivered), ProgressSegment(Double(b.other), role: .accent),
                ProgressSegment(Double(b.pending), role: .statusPending), ProgressSegment(Double(b.impossible), role: .statusFailed),
            ], total: Double(max(1, b.recipients)))
        }
    }

    private func renderRecipients(of bulk: BulkSummary, into canvas: inout Canvas, rect: Rect, now: Date) {
        let vm = viewModel
        let head = "Bulk \(bulk.bulkId) · \(Self.time(bulk.createdAt, now: now))" + (bulk.resendOf.map { " · resend of \($0)" } ?? "")
            + " · \(bulk.recipients) recipients: "
            + "\(bulk.invited) invited, \(bulk.pending) pending, \(bulk.impossible) failed"
        canvas.put(TextFit.truncate(head, to: rect.width - 2), x: rect.x + 1, y: rect.y, style: Style(.title), clip: rect)
        // The message, and at the right what the carrier reported charging beside what the send estimated.
        let cost = Self.cost(estimate: bulk.estimate, reported: vm.recipients.reportedCost)
        let costWidth = cost.isEmpty ? 0 : min(TextWidth.of(cost), rect.width / 2)
        if !bulk.message.isEmpty {
            canvas.put(TextFit.truncate("“\(bulk.message)”", to: rect.width - 2 - (costWidth > 0 ? costWidth + 2 : 0)), x: rect.x + 1,
                       y: rect.y + 1, style: Style(.muted), clip: rect)
        }
        if costWidth > 0 {
            canvas.put(TextFit.truncate(cost, to: costWidth), x: rect.maxX - 1 - costWidth, y: rect.y + 1, style: Style(.text), clip: rect)
        }
        ProgressBarView.render(into: &canvas, rect: Rect(x: rect.x + 1, y: rect.y + 2, width: max(0, rect.width - 2), height: 1), segments: [
            ProgressSegment(Double(bulk.invited), role: .statusDelivered), ProgressSegment(Double(bulk.other), role: .accent),
            ProgressSegment(Double(bulk.pending), role: .statusPending), ProgressSegment(Double(bulk.impossible), role: .statusFailed),
        ], total: Double(max(1, bulk.recipients)))
        if let history = vm.bulkHistory, history.bulkId == bulk.bulkId {
            let latest = history.failure.map { "history: \($0)" }
                ?? history.lines.last.map { "last: \($0)" + (history.lines.count > 1 ? "  (a: all \(history.lines.count))" : "") }
            if let latest {
                canvas.put(TextFit.truncate(latest, to: rect.width - 2), x: rect.x + 1, y: rect.y + 3, style: Style(.muted), clip: rect)
            }
        }
        let table = rect.inset(top: 4)
        let rows = vm.visibleRecipients
        recipientList.count = rows.count
        recipientList.select(vm.recipientCursor)
        if rows.isEmpty && vm.isLoadingRecipients {
            canvas.put("Reading the recipients…", x: table.x + 1, y: table.y + 1, style: Style(.muted), clip: table)
            return
        }
        if rows.isEmpty {
            let text = vm.query.isActive && vm.query.recipientIds != nil
                ? "No recipient of this bulk matches the query (esc clears it)."
                : "No \(vm.filter.rawValue) recipients in this bulk (f changes the filter)."
            canvas.put(text, x: table.x + 1, y: table.y + 1, style: Style(.muted), clip: table)
            return
        }
        TableView.render(into: &canvas, rect: table, columns: Self.recipientColumns, state: &recipientList, cells: { i in
            let r = rows[i]
            let selected = r.invitationId.map(vm.selectedRecipients.contains) ?? false
            return [(selected ? "✓ " : "") + r.name, r.number, r.statusText, r.error ?? "", r.price ?? "", PersonDetailView.stamp(r.updatedAt)]
        }, cellStyle: { i, column in
            let r = rows[i]
            guard column == 2 else { return nil }
            if let id = r.invitationId, vm.isHighlighted(String(id), .status, now: now) { return Style(.changed, .bold) }
            if r.status.isInvited { return Style(.statusDelivered) }
            if r.status.isImpossible { return Style(.statusFailed) }
            return Style(.statusPending)
        })
    }

    /// One recipient whole: the number, the status with the platform's reason, price, attempts, times, ids and the
    /// text as sent; it follows the cursor (j/k) and its status moves live.
    func renderDetail(of r: RecipientRow, bulkId: String, message: String, into canvas: inout Canvas, area: Rect) {
        let width = max(20, min(area.width - 6, 76))
        var lines = [
            "Number      \(r.number)",
            "Status      \(r.status.label(for: r.number))",
            "Clicks      \(r.clicks == 0 ? "its link not opened yet" : "its link opened \(counted(r.clicks, "time"))")",
        ]
        if let reason = r.error {
            lines += wrapped("Reason      ", reason + (r.permanentFailure ? " (for good: not retried)" : ""), width: width)
        }
        lines += [
            "Price       \(r.price ?? "not told by the carrier")",
            "Attempts    \(r.attempts)",
            "Queued      \(PersonDetailView.stamp(r.queuedAt))",
            "Updated     \(PersonDetailView.stamp(r.updatedAt))",
            "Message id  \(r.messageId ?? (r.status.isPending ? "none yet (queued)" : "none: the platform gave none"))",
            "Bulk        \(bulkId)",
        ]
        // The text as the platform sent it; else (a colleague's bulk, an older ledger) the bulk's message as written.
        if let text = r.text {
            lines += wrapped("Text        ", text, width: width)
        } else if !message.isEmpty {
            lines += wrapped("Template    ", message, width: width)
        }
        // What the number answered and was answered back: the last messages of its conversation.
        if let conversation = viewModel.detailConversation, !conversation.isEmpty {
            lines += ["", conversation.heading] + conversation.lines(now: clock.now(), width: width).map { "  " + $0 }
        }
        ModalView.render(into: &canvas, area: area, title: r.name == "—" ? r.number : r.name, lines: Array(lines.prefix(max(1, area.height - 4))),
                         buttons: ["Close (esc)"], minWidth: width)
        canvas.markLinks(in: area)       // the short link in the text as sent: OSC 8 where the terminal shows them
    }

    /// `text` after `label`, wrapped to `width` with the following lines indented under the first.
    private func wrapped(_ label: String, _ text: String, width: Int) -> [String] {
        let indent = String(repeating: " ", count: TextWidth.of(label))
        return WrappedText.lines(text, width: width - TextWidth.of(label)).enumerated().map { ($0.offset == 0 ? label : indent) + $0.element }
    }

    /// "cost 0.015 EUR reported, 0.02 EUR estimated": what the carrier reported and what the send estimated ("").
    static func cost(estimate: String?, reported: String?) -> String {
        switch (reported, estimate) {
        case let (reported?, estimate?): return "cost \(reported) reported, \(estimate) estimated"
        case let (reported?, nil): return "cost \(reported) reported"
        case let (nil, estimate?): return "cost \(estimate) estimated"
        case (nil, nil): return ""
        }
    }

    /// "14:03:07" for today, else "01-05 14:03".
    static func time(_ date: Date, now: Date) -> String {
        let stamp = PersonDetailView.stamp(date)
        let today = PersonDetailView.stamp(now).prefix(10)
        return stamp.hasPrefix(today) ? String(stamp.suffix(8)) : String(stamp.dropFirst(5).prefix(11))
    }

    // MARK: keys

    public var bindings: [PaneBinding] {
        let vm = viewModel
        if vm.confirmation != nil {
            return [PaneBinding(.pressButton, footer: "resend") { vm.confirmResend() },
                    PaneBinding(.no, footer: "cancel") { vm.cancelResend() },
                    PaneBinding(.yes) { vm.confirmResend() }]
                + PaneBinding.each([.back, .quit]) { vm.cancelResend() }     // q closes the innermost first
        }
        if typingQuery {
            return PaneBinding.each([.back, .finishEditing]) { self.endQuery() } + [
                PaneBinding(.earlierSearch) { if let text = vm.recallQuery(-1) { self.queryField.setText(text) } },
                PaneBinding(.laterSearch) { if let text = vm.recallQuery(1) { self.queryField.setText(text) } },
            ]
        }
        if vm.breakdown.isOpen { return breakdownBindings }
        if vm.showsHistory {
            return PaneBinding.each([.back, .quit, .open]) { _ = vm.close() } + declaredBindings
        }
        if vm.detail != nil {
            // The detail is in front: j/k walk the recipients under it, Enter, Esc or q close it, y copies; the list
            // behind takes nothing else.
            return [PaneBinding(.moveDown, footer: "next") { vm.moveCursor(by: 1) },
                    PaneBinding(.moveUp, footer: "previous") { vm.moveCursor(by: -1) },
                    PaneBinding(.back, footer: "close") { _ = vm.close() },
                    PaneBinding(.copy) { self.copier?.copy(vm.copyTarget) }]
                + PaneBinding.each([.open, .quit]) { _ = vm.close() } + declaredBindings
        }
        let inBulk = vm.openBulkId != nil
        return [
            PaneBinding(.open, footer: inBulk ? "detail" : "recipients") { vm.open() },
            PaneBinding(.filter, footer: "filter: \(vm.filter.rawValue)") { vm.cycleFilter() },
            PaneBinding(.sort, footer: inBulk ? nil : "sort: \(vm.sort.rawValue)") { vm.cycleSort() },
        ] + declaredBindings + [
            // A held bulk under the cursor is taken back here; otherwise the key takes back the countdown's sends.
            PaneBinding.declining(.takeBack, footer: ((vm.openBulk ?? vm.currentBulk)?.held ?? 0) > 0 ? "take back" : nil) { vm.takeBack() },
            // Esc clears the query first; then it, and q, leave the open bulk; from the list q quits.
            PaneBinding.declining(.back, footer: inBulk ? "back" : vm.query.isActive ? "clear query" : nil) {
                vm.clearQuery() || vm.close()
            },
            PaneBinding.declining(.quit) { vm.close() },
            PaneBinding(.search, footer: "query") { self.beginQuery() },
            PaneBinding(.reload) { vm.reload() },
            PaneBinding(.select) { vm.toggleSelection(); vm.moveCursor(by: 1) },
            PaneBinding(.copy) { self.copier?.copy(vm.copyTarget) },
        ] + navigation.bindings
    }

    /// The table's movement keys and wheel (the bulks, or the recipients of the open bulk).
    private var navigation: ListNavigation {
        let vm = viewModel
        return ListNavigation(page: max(1, tableRect.height - 2), move: { vm.moveCursor(by: $0) },
                              first: { vm.moveCursor(to: 0) }, last: { vm.moveCursor(to: Int.max / 2) })
    }

    public func handle(unboundKey key: Key) -> Bool {
        if typingQuery, viewModel.confirmation == nil {
            if key == .enter || key == .tab { endQuery(); return true }
            let before = queryField.text
            guard queryField.handle(key) else { return false }
            if queryField.text != before {
                viewModel.restartHistory()
                viewModel.setQuery(queryField.text)
            }
            return true
        }
        return viewModel.confirmation != nil     // the question keeps every key
    }

    public func handle(mouse: MouseEvent) -> Bool {
        let vm = viewModel
        if vm.breakdown.isOpen { return breakdownNavigation.scroll(mouse) }
        if navigation.scroll(mouse) { return true }
        let tableTop = vm.openBulkId == nil ? tableRect.y + 1 : tableRect.y + 5
        let rows = Rect(x: tableRect.x, y: tableTop, width: tableRect.width, height: tableRect.maxY - tableTop)
        let offset = vm.openBulkId == nil ? list.offset : recipientList.offset
        guard let row = ListNavigation.row(at: mouse, in: rows, offset: offset) else { return false }
        vm.moveCursor(to: row)
        return true
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool { viewModel.handle(event: serviceEvent) }
    public func nextDeadline() -> Date? { viewModel.nextDeadline(now: clock.now()) }
    public func tick(now: Date) -> Bool { viewModel.tick(now: now) }
}

extension DeliveriesPane: KeyDeclaring {
    /// Deliveries' own keys, each whole, in the footer's order; listed in the list and, where `listed` says so, in a
    /// recipient's detail (f and s share their names with Contacts' keys and stay in `KeyBindings.table`).
    public nonisolated static let keys: [PaneKey<DeliveriesPane>] = [
        PaneKey("resend", [.char("r")], "Resend what failed (selected rows; in the breakdown: the group's)", [.deliveries],
                footer: "resend failed", listed: { $0.viewModel.detail == nil && $0.viewModel.breakdown.detailId == nil }) { pane in
            if pane.viewModel.breakdown.isOpen { pane.viewModel.requestGroupResend() } else { pane.viewModel.requestResend() }
        },
        PaneKey("breakdown", [.char("b")], "Break down what the query matches by failure reason, country or sender ID (again: close)",
                [.deliveries], footerNow: { $0.viewModel.breakdown.isOpen ? "close breakdown" : "breakdown" },
                listed: { $0.viewModel.detail == nil && $0.viewModel.breakdown.detailId == nil }) { $0.viewModel.toggleBreakdown() },
        PaneKey("breakdown_by", [.char("d")], "In the breakdown: group by reason, country or sender ID", [.deliveries],
                footerNow: { "by \($0.viewModel.breakdown.dimension.next.rawValue)" },
                listed: { $0.viewModel.breakdown.isOpen && $0.viewModel.breakdown.openGroup == nil }) {
            $0.viewModel.cycleBreakdownDimension()
        },
        PaneKey("history", [.char("a")], "The open bulk's history: who sent, moved, took back or resent it, when and from where",
                [.deliveries], footerNow: { $0.viewModel.showsHistory ? "close history" : "history" },
                listed: { $0.viewModel.openBulkId != nil && $0.viewModel.detail == nil && !$0.viewModel.breakdown.isOpen }) {
            $0.viewModel.toggleHistory()
        },
        PaneKey("copy_reason", [.char("e")], "Copy why the recipient under the cursor (or in detail) failed", [.deliveries],
                listed: { $0.viewModel.openBulkId != nil },
                disabledReason: { $0.viewModel.currentRecipient?.error == nil ? "this recipient has no failure reason" : nil }) {
            pane in pane.copier?.copy(pane.viewModel.currentRecipient?.error.map { CopyTarget(text: $0, what: "failure reason") })
        },
    ]
}
