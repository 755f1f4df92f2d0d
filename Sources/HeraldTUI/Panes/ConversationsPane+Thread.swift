import Foundation
import HeraldCore
import HeraldViewModels

/// One line of a drawn thread: its text, where it starts (from the left edge of the thread) and how it looks.
nonisolated struct ThreadLine: Sendable, Hashable {
    var text: String
    var indent: Int
    var role: Role
    var bold = false
}

/// The open thread of the Replies pane: replies on the left (marked ←, a new one ●), what was sent on the right
/// (marked →, with its delivery status), oldest at the top and the newest at the bottom; the answer's editor, its
/// meter and the sender under it while `r` writes.
extension ConversationsPane {
    func renderThread(into canvas: inout Canvas, rect: Rect) {
        let vm = viewModel
        let area = rect.inset(left: 1, right: 1)
        guard let number = vm.openNumber else { return }
        let detail = vm.thread
        // The head: who, the number, what is unread.
        var head = detail.map { d in d.name.map { "\(TerminalSafeText.sanitize($0)) · \(TerminalSafeText.sanitize(number))" }
                                    ?? "\(TerminalSafeText.sanitize(number)) (unknown: a adds it to the address book)" }
            ?? TerminalSafeText.sanitize(number)
        if vm.threadUnread > 0 { head += " · " + counted(vm.threadUnread, "new reply", "new replies") }
        canvas.put(TextFit.truncate(head, to: area.width), x: area.x, y: area.y, style: Style(.title, .bold), clip: area)
        var body = area.inset(top: 1)
        if vm.isWriting || vm.confirmation != nil {
            let editorHeight = min(8, max(3, body.height / 3))
            let parts = Layout.rows(body, [.flex(1), .fixed(editorHeight + 2), .fixed(1), .fixed(1)])
            body = parts[0]
            renderEditor(into: &canvas, box: parts[1], meter: parts[2], sender: parts[3])
        }
        guard let detail else {
            canvas.put(vm.isLoadingThread ? "Reading the conversation…" : "", x: body.x, y: body.y, style: Style(.muted), clip: body)
            return
        }
        let lines = Self.threadLines(detail, width: body.width, now: clock.now())
        threadLineCount = lines.count
        threadHeight = max(1, body.height)
        threadScroll = max(0, min(threadScroll, lines.count - threadHeight))
        // The newest at the bottom: the window ends `threadScroll` lines above the last.
        let end = lines.count - threadScroll
        let start = max(0, end - threadHeight)
        var y = body.y + max(0, threadHeight - (end - start))
        for line in lines[start..<end] {
            canvas.put(line.text, x: body.x + line.indent, y: y, style: Style(line.role, line.bold ? [.bold] : []), clip: body)
            y += 1
        }
        if start > 0 && threadScroll == 0 && body.height > 0 {
            let more = detail.hasMore ? "▲ older messages above (k scrolls)" : "▲ \(start) more lines above (k scrolls)"
            canvas.put(TextFit.truncate(more, to: body.width), x: body.x, y: body.y, style: Style(.muted), clip: body)
        }
    }

    private func renderEditor(into canvas: inout Canvas, box: Rect, meter: Rect, sender: Rect) {
        let vm = viewModel
        syncEditor()
        let title = "Answer to \(vm.draft?.recipient ?? "") — ctrl-s sends · esc keeps it for later"
        let inside = canvas.box(box, style: Style(vm.isWriting ? .borderFocused : .border), title: title)
        EditorView.render(into: &canvas, rect: inside, state: &editor, focused: vm.isWriting, style: Style(.input))
        let m = vm.answerMeasurement
        var x = canvas.put(m.encoding.rawValue, x: meter.x, y: meter.y, style: Style(m.encoding == .ucs2 ? .warning : .success, .bold), clip: meter)
        x = canvas.put(" · \(counted(m.segments, "SMS", "SMS")) · \(m.characters) chars · \(m.unitsLeftInSegment) left", x: x, y: meter.y,
                       style: .text, clip: meter)
        if !m.ucs2Culprits.isEmpty {
            x = canvas.put(" · UCS-2 because of ", x: x, y: meter.y, style: Style(.muted), clip: meter)
            for culprit in m.ucs2Culprits.prefix(6) {
                x = canvas.put(TerminalSafeText.sanitize(String(culprit.character)), x: x, y: meter.y, style: Style(.warning, .reverse), clip: meter) + 1
            }
        }
        let from = "From " + TerminalSafeText.sanitize(vm.sender.label)
        let fromEnd = canvas.put(from, x: sender.x, y: sender.y, style: Style(.muted), clip: sender)
        if let warning = vm.sender.warning {
            canvas.put(TextFit.truncate(" ⚠ " + TerminalSafeText.sanitize(warning), to: max(0, sender.maxX - fromEnd)), x: fromEnd,
                       y: sender.y, style: Style(.warning), clip: sender)
        }
    }

    /// The thread as lines `width` wide: each message a head line (← time, or time · status →) and its text wrapped,
    /// replies flush left, what was sent flush right, a blank line between messages. Text from outside is sanitised.
    static func threadLines(_ detail: ShownThread, width: Int, now: Date) -> [ThreadLine] {
        guard width > 4 else { return [] }
        let bubble = max(10, min(width - 2, width * 3 / 4))
        var out: [ThreadLine] = []
        if detail.hasMore { out.append(ThreadLine(text: "(older messages are not shown)", indent: 0, role: .muted)) }
        if detail.entries.isEmpty {
            out.append(ThreadLine(text: "Nothing in this conversation yet.", indent: 0, role: .muted))
        }
        for entry in detail.entries {
            if !out.isEmpty { out.append(ThreadLine(text: "", indent: 0, role: .text)) }
            let time = WallClock.timeOrDay(entry.at, now: now)
            let text = WrappedText.lines(TerminalSafeText.sanitize(entry.text, singleLine: false), width: bubble)
            switch entry.kind {
            case .reply:
                var head = "← \(time)"
                if !entry.seen { head += " ● new" }
                out.append(ThreadLine(text: TextFit.truncate(head, to: width), indent: 0, role: entry.seen ? .accent : .changed, bold: true))
                out += text.map { ThreadLine(text: $0, indent: 2, role: .text, bold: !entry.seen) }
            case .sent:
                let status = entry.status.map { $0.label } ?? "sent"
                let head = TextFit.truncate("\(time) · \(status) →", to: width)
                out.append(ThreadLine(text: head, indent: max(0, width - TextWidth.of(head)), role: statusRole(entry.status)))
                let block = text.map(TextWidth.of).max() ?? 0
                out += text.map { ThreadLine(text: $0, indent: max(0, width - block), role: .text) }
            }
        }
        return out
    }

    /// The colour of a sent message's status: delivered, on its way, or failed.
    static func statusRole(_ status: DeliveryStatus?) -> Role {
        guard let status else { return .muted }
        if status.isInvited { return .statusDelivered }
        if status.isImpossible { return .statusFailed }
        return .statusPending
    }

    /// The open thread's movement keys and wheel: k and up go back in time, j and down forward, G to the newest.
    var threadNavigation: ListNavigation {
        ListNavigation(page: max(1, threadHeight - 2), halfPage: max(1, threadHeight / 2),
                       move: { self.threadScroll = max(0, min(self.threadScroll - $0, max(0, self.threadLineCount - self.threadHeight))) },
                       first: { self.threadScroll = max(0, self.threadLineCount - self.threadHeight) },
                       last: { self.threadScroll = 0 })
    }
}
