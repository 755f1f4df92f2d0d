import Foundation
import HeraldCore
import HeraldViewModels

/// Deliveries' `/` query bar and its breakdown view: the groups of what the query matches (reason, country or sender
/// ID) with count, share, first and last seen and how much is final; a group opened to its recipients, one of them in
/// detail.
extension DeliveriesPane {
    static func breakdownColumns(_ title: String) -> [TableColumn] { [
        TableColumn(title, width: .flex(3)), TableColumn("Count", width: .fixed(7), alignment: .right),
        TableColumn("Share", width: .fixed(6), alignment: .right), TableColumn("First seen", width: .fixed(11)),
        TableColumn("Last seen", width: .fixed(11)), TableColumn("Final", width: .fixed(9)),
        TableColumn("Retry", width: .fixed(6), alignment: .right),
    ] }
    static let groupColumns = [
        TableColumn("Name", width: .flex(2)), TableColumn("Number", width: .fixed(16)), TableColumn("Status", width: .flex(2)),
        TableColumn("Reason", width: .flex(3)), TableColumn("Bulk", width: .fixed(8)), TableColumn("Updated", width: .fixed(11)),
    ]

    // MARK: the query field

    /// `/`: opens the field on the query as it stands (typing edits it; ↑/↓ walk the history).
    func beginQuery() {
        typingQuery = true
        queryField.setText(viewModel.query.text)
        viewModel.restartHistory()
    }

    /// Enter, tab or esc in the field: the query stays and joins the history.
    func endQuery() {
        typingQuery = false
        viewModel.rememberQuery()
    }

    /// The field (typing) or the query, with what it matched or why it cannot be read.
    func renderQueryBar(into canvas: inout Canvas, row: Rect) {
        guard row.width > 4, row.height > 0 else { return }
        let vm = viewModel
        canvas.fill(row, style: Style(.text))
        canvas.put("/", x: row.x, y: row.y, style: Style(.title), clip: row)
        let summary = vm.query.summary
        let hint = typingQuery ? "  ↑↓ history · enter done" : "  b breakdown · esc clears"
        let fieldWidth = max(12, min(row.width / 2, row.width - 1 - TextWidth.of(summary) - 2))
        if typingQuery {
            TextFieldView.render(into: &canvas, rect: Rect(x: row.x + 1, y: row.y, width: fieldWidth, height: 1), state: &queryField,
                                 placeholder: "status:failed reason:\"absent\" country:HR after:7d …")
        } else {
            canvas.put(TextFit.truncate(vm.query.text, to: fieldWidth), x: row.x + 1, y: row.y, style: Style(.highlight), clip: row)
        }
        let rest = max(0, row.width - 2 - fieldWidth)
        let style = Style(vm.query.error != nil ? .error : .muted)
        canvas.put(TextFit.truncate("  " + summary + (vm.query.error == nil ? hint : ""), to: rest), x: row.x + 1 + fieldWidth,
                   y: row.y, style: style, clip: row)
    }

    // MARK: the breakdown

    func renderBreakdown(into canvas: inout Canvas, rect: Rect, area: Rect, now: Date) {
        let vm = viewModel
        let state = vm.breakdown
        if let group = state.openGroup {
            renderGroup(label: group.key.label, count: group.count, retryable: group.retryable, into: &canvas, rect: rect, now: now)
            if let r = vm.breakdownDetail, let row = state.groupRecipients.first(where: { $0.id == r.invitationId }) {
                renderDetail(of: r, bulkId: row.bulkId, message: "", into: &canvas, area: area)
            }
            return
        }
        guard let breakdown = state.breakdown else {
            canvas.put("Counting…", x: rect.x + 1, y: rect.y + 1, style: Style(.muted), clip: rect)
            return
        }
        let scope = vm.query.isActive ? "the query's \(counted(breakdown.total, "recipient"))" : "all \(counted(breakdown.total, "recipient"))"
        let head = "\(scope) by \(state.dimension.title.lowercased()) · enter: its recipients · r: resend what can be · d: by \(state.dimension.next.rawValue)"
        canvas.put(TextFit.truncate(head, to: rect.width - 2), x: rect.x + 1, y: rect.y, style: Style(.title), clip: rect)
        let table = rect.inset(top: 1)
        let groups = breakdown.groups
        guard !groups.isEmpty else {
            canvas.put("Nothing matches.", x: table.x + 1, y: table.y + 1, style: Style(.muted), clip: table)
            return
        }
        breakdownList.count = groups.count
        breakdownList.select(state.cursor)
        TableView.render(into: &canvas, rect: table, columns: Self.breakdownColumns(state.dimension.title), state: &breakdownList, cells: { i in
            let g = groups[i]
            let final = g.isFinal ? "all" : g.final == 0 ? "none" : "\(g.final)"
            return [TerminalSafeText.sanitize(g.key.label), "\(g.count)", Self.percent(g.share), Self.time(g.firstSeen, now: now),
                    Self.time(g.lastSeen, now: now), g.permanent > 0 ? "\(final) (\(g.permanent)!)" : final, "\(g.retryable)"]
        }, cellStyle: { i, column in
            let g = groups[i]
            switch column {
            case 0: return g.key.value == nil ? Style(.muted) : nil
            case 6: return g.retryable > 0 ? Style(.statusFailed) : Style(.muted)
            default: return nil
            }
        })
    }

    private func renderGroup(label: String, count: Int, retryable: Int, into canvas: inout Canvas, rect: Rect, now: Date) {
        let vm = viewModel
        let rows = vm.breakdown.groupRecipients
        var head = "\(vm.breakdown.dimension.title) “\(TerminalSafeText.sanitize(label))” · \(counted(count, "recipient"))"
            + " · \(retryable) can be resent (r)"
        if count > rows.count, !rows.isEmpty { head += " · first \(rows.count) shown (export for all)" }
        canvas.put(TextFit.truncate(head, to: rect.width - 2), x: rect.x + 1, y: rect.y, style: Style(.title), clip: rect)
        let table = rect.inset(top: 1)
        guard !rows.isEmpty else {
            canvas.put("Reading the recipients…", x: table.x + 1, y: table.y + 1, style: Style(.muted), clip: table)
            return
        }
        groupList.count = rows.count
        groupList.select(vm.breakdown.groupCursor)
        TableView.render(into: &canvas, rect: table, columns: Self.groupColumns, state: &groupList, cells: { i in
            let r = rows[i]
            return [TerminalSafeText.sanitize(r.name ?? "—"), TerminalSafeText.sanitize(r.number), r.status.label(for: r.number),
                    TerminalSafeText.sanitize(r.reason ?? ""), TerminalSafeText.sanitize(String(r.bulkId.prefix(8))),
                    Self.time(r.updatedAt, now: now)]
        }, cellStyle: { i, column in
            guard column == 2 else { return nil }
            let status = rows[i].status
            return Style(status.isInvited ? .statusDelivered : status.isImpossible ? .statusFailed : .statusPending)
        })
    }

    /// "37%", "<1%".
    static func percent(_ share: Double) -> String {
        share > 0 && share < 0.01 ? "<1%" : "\(Int((share * 100).rounded()))%"
    }

    var breakdownNavigation: ListNavigation {
        let vm = viewModel
        return ListNavigation(page: max(1, tableRect.height - 3), move: { vm.moveBreakdownCursor(by: $0) },
                              first: { vm.moveBreakdownCursor(to: 0) }, last: { vm.moveBreakdownCursor(to: Int.max / 2) })
    }

    /// The keys of the breakdown: movement, enter into a group (then a recipient's detail), esc back out, r, b, d.
    var breakdownBindings: [PaneBinding] {
        let vm = viewModel
        let inGroup = vm.breakdown.openGroup != nil
        return [
            PaneBinding(.open, footer: inGroup ? (vm.breakdown.detailId == nil ? "detail" : "close") : "recipients") { vm.openBreakdownRow() },
            PaneBinding.declining(.back, footer: "back") { vm.closeBreakdownLevel() },
            PaneBinding.declining(.quit) { vm.closeBreakdownLevel() },
            PaneBinding(.search, footer: "query") { self.beginQuery() },
            PaneBinding(.reload) { vm.reload(); vm.refreshBreakdown() },
            PaneBinding(.copy) { self.copier?.copy(vm.breakdownCopyTarget) },
        ] + declaredBindings + breakdownNavigation.bindings
    }
}
