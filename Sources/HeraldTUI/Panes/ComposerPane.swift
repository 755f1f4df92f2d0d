import Foundation
import HeraldCore
import HeraldViewModels

/// The Composer pane: the message chosen, the sender ID, the signature, the editor (link
/// placeholder and fields highlighted, characters forcing UCS-2 marked), the SMS meter and a live
/// preview for the selected recipients; `ctrl-s` asks for confirmation, then sends.
public final class ComposerPane: LivePane {
    public let model: ComposerViewModel
    public let title = "Composer"
    /// The people to invite, asked each time the pane is shown (the Contacts selection).
    public var recipientIds: () -> [Int64] = { [] }
    /// True from Contacts' `I` until its people are read: the pane's own selection must not replace them.
    private var invitePending = false
    /// Hands the terminal to an outside program (`NcursesTerminal.suspend`); nil: `e` is not available.
    public var suspendTerminal: ((() -> Void) -> Void)?
    public var environment = ProcessInfo.processInfo.environment

    private var editor: EditorState
    private var focus: Focus = .none
    private var sender: TextFieldState
    private var confirmButton = 0
    private var loaded = false
    /// The fallback being typed in the confirmation (`f`), for this field.
    private var fallback = TextFieldState("")

    private enum Focus: Equatable { case none, text, sender, fallback(String) }

    /// The field whose fallback is being typed, nil when none is.
    var fallbackField: String? { if case .fallback(let field) = focus { return field } else { return nil } }

    public init(model: ComposerViewModel) {
        self.model = model
        editor = EditorState(model.text)
        sender = TextFieldState(model.sender)
    }

    public var keyContext: KeyContext {
        if model.confirmation != nil, fallbackField == nil { return .question }
        return focus == .none ? .composer : .editor
    }
    public var capturesAllKeys: Bool { focus != .none || model.confirmation != nil }
    public var quitWarning: String? { model.hasUnsentChanges ? "The message you edited in the Composer is not sent and will be lost." : nil }

    public var hints: [(key: HintKey, label: String)] {
        if fallbackField != nil { return [("enter", "use it"), ("esc", "cancel")] }
        return focus == .sender && model.confirmation == nil ? [("enter", "done"), ("esc", "done")] : footerHints
    }

    // MARK: drawing

    public func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
        syncEditor()
        let channel = model.channel == .email ? "email" : "SMS"
        let inside = canvas.box(rect, style: Style(.borderFocused), title: "Composer — \(channel) invitation")
        guard inside.width > 10, inside.height > 6 else { return }
        let rows = Layout.rows(inside, [.fixed(1), .fixed(1), .fixed(1), .flex(3), .fixed(1), .fixed(1), .flex(2)])
        renderMessageLine(into: &canvas, rect: rows[0])
        renderSenderLine(into: &canvas, rect: rows[1])
        renderStateLine(into: &canvas, rect: rows[2])
        let editorInside = canvas.box(rows[3], style: Style(focus == .text ? .borderFocused : .border),
                                      title: model.isReadOnly ? "Message (read-only)" : "Message")
        EditorView.render(into: &canvas, rect: editorInside, state: &editor, focused: focus == .text,
                          highlights: highlights(), style: Style(model.isReadOnly ? .muted : .input))
        renderMeter(into: &canvas, rect: rows[4])
        renderFieldsHint(into: &canvas, rect: rows[5])
        renderPreview(into: &canvas, rect: rows[6])
        if let confirmation = model.confirmation {
            var lines: [String] = []
            if let sender = confirmation.sender {
                lines.append("From \(TerminalSafeText.sanitize(sender)): “\(TextFit.truncate(confirmation.preview, to: max(10, inside.width - 20)))”")
            }
            if confirmation.alreadyInvited > 0 {
                lines.append("\(confirmation.alreadyInvited) number\(confirmation.alreadyInvited == 1 ? "" : "s") left out: already invited or on the way")
            }
            lines += missingLines(confirmation)
            if model.channel == .sms { lines.append(model.sendTimeLine()) }
            if let cost = confirmation.cost { lines.append(cost) }
            if !confirmation.unknownPrices.isEmpty {
                lines.append("Price unknown (not counted): " + confirmation.unknownPrices.joined(separator: ", "))
            }
            if confirmation.askedAgain {
                lines.append("Asked again for its cost: type y to send, esc to cancel")
            } else if confirmation.needsExplicitYes { lines.append("A large send: type y to send, esc to cancel") }
            lines += confirmation.lines
            if !confirmation.unreachable.isEmpty {
                lines.append("Not reachable this way: " + confirmation.unreachable.joined(separator: ", "))
            }
            let room = max(1, inside.height - 6)
            if lines.count > room { lines = Array(lines.prefix(room - 1)) + ["… and \(lines.count - room + 1) more"] }
            ModalView.render(into: &canvas, area: inside, title: confirmation.title, lines: lines,
                             buttons: ["Send", "Cancel"], selectedButton: confirmButton)
        }
    }

    /// Who lacks a personal field, and the choice: leave them out (o) or a fallback (f), the one being typed.
    private func missingLines(_ confirmation: SendConfirmation) -> [String] {
        var lines: [String] = []
        if !confirmation.leftOut.isEmpty {
            lines.append("Left out: " + confirmation.leftOut.map { TerminalSafeText.sanitize($0) }.joined(separator: ", "))
        }
        guard !confirmation.missing.isEmpty else { return lines }
        var byField: [(String, [String])] = []
        for m in confirmation.missing {
            let name = TerminalSafeText.sanitize(m.name ?? m.address)
            if let i = byField.firstIndex(where: { $0.0 == m.field }) { byField[i].1.append(name) } else { byField.append((m.field, [name])) }
        }
        var given: [String: String] = [:]
        if case .fallback(let g)? = model.missingChoice { given = g }
        for (field, names) in byField {
            let choice = given[field].map { " → “\(TerminalSafeText.sanitize($0))”" } ?? (model.missingChoice == .leaveOut ? " → left out" : "")
            lines.append("No {\(field)}: " + names.joined(separator: ", ") + choice)
        }
        if let field = fallbackField {
            lines.append("Fallback for {\(field)}: \(TerminalSafeText.sanitize(fallback.text))▏ (enter: use it, esc: cancel)")
        } else if model.missingChoice == nil || !model.fieldsWithoutFallback.isEmpty {
            lines.append("Never a blank: o leaves them out, f gives a fallback")
        }
        return lines
    }

    /// The field names the message may use with the people selected (the hint under the meter).
    private func renderFieldsHint(into canvas: inout Canvas, rect: Rect) {
        guard model.channel == .sms else { return }
        let names = model.fieldNames.map { "{\(TerminalSafeText.sanitize($0))}" }.joined(separator: " ")
        canvas.put(TextFit.truncate("Fields: " + names + "  ({KEY|fallback} for an empty one)", to: rect.width),
                   x: rect.x, y: rect.y, style: Style(.muted), clip: rect)
    }

    private func renderMessageLine(into canvas: inout Canvas, rect: Rect) {
        var x = canvas.put("Message: ", x: rect.x, y: rect.y, style: Style(.title), clip: rect)
        if let message = model.selectedMessage {
            // The default message is named as such; custom ones by the start of their key.
            let name = model.messageIndex == 0 ? "default message"
                : "custom message \(TextFit.truncate(TerminalSafeText.sanitize(message.key), to: 12))"
            let label = "\(name) (\(model.messageIndex + 1)/\(model.messages.count), [ ] to switch)"
            x = canvas.put(label, x: x, y: rect.y, style: .text, clip: rect)
            if model.isModified { x = canvas.put(" *modified*", x: x, y: rect.y, style: Style(.warning), clip: rect) }
        } else {
            x = canvas.put(model.loadProblem ?? (model.isLoading ? "loading…" : "none"), x: x, y: rect.y,
                           style: Style(model.loadProblem == nil ? .muted : .error), clip: rect)
        }
        let signature = "   Signature: " + (model.signature.map { TextFit.truncate(TerminalSafeText.sanitize($0), to: 16) } ?? "none")
        canvas.put(signature, x: x, y: rect.y, style: Style(.muted), clip: rect)
    }

    private func renderSenderLine(into canvas: inout Canvas, rect: Rect) {
        let x = canvas.put("Sender ID: ", x: rect.x, y: rect.y, style: Style(.title), clip: rect)
        let fieldRect = Rect(x: x, y: rect.y, width: min(16, rect.maxX - x), height: 1)
        TextFieldView.render(into: &canvas, rect: fieldRect, state: &sender, focused: focus == .sender,
                             placeholder: "up to 11 letters", style: Style(focus == .sender ? .input : .text))
        let after = fieldRect.maxX + 1
        if let problem = model.senderProblem {
            canvas.put("✗ " + TextFit.truncate(problem, to: max(0, rect.maxX - after - 2)), x: after, y: rect.y, style: Style(.error), clip: rect)
        } else {
            canvas.put("✓", x: after, y: rect.y, style: Style(.success), clip: rect)
        }
    }

    private func renderStateLine(into canvas: inout Canvas, rect: Rect) {
        if let reason = model.readOnlyReason {
            canvas.put(TextFit.truncate(reason, to: rect.width), x: rect.x, y: rect.y, style: Style(.warning), clip: rect)
            return
        }
        let names = model.recipients.prefix(3).map { TerminalSafeText.sanitize($0.displayName) }
        var text = model.recipients.isEmpty ? "To: nobody yet (select people in Contacts with space)"
                                            : "To: " + names.joined(separator: ", ")
        if model.recipients.count > 3 { text += " and \(model.recipients.count - 3) more" }
        canvas.put(TextFit.truncate(text, to: rect.width), x: rect.x, y: rect.y, style: Style(.muted), clip: rect)
    }

    private func renderMeter(into canvas: inout Canvas, rect: Rect) {
        guard model.channel == .sms else {
            canvas.put("Email: the link goes below the text.", x: rect.x, y: rect.y, style: Style(.muted), clip: rect)
            return
        }
        let m = model.measurement
        let role: Role = m.encoding == .ucs2 ? .warning : .success
        var x = canvas.put(m.encoding.rawValue, x: rect.x, y: rect.y, style: Style(role, .bold), clip: rect)
        x = canvas.put(" · \(m.segments) SMS · \(m.characters) chars · \(m.unitsLeftInSegment) left", x: x, y: rect.y, style: .text, clip: rect)
        if !m.ucs2Culprits.isEmpty {
            x = canvas.put(" · UCS-2 because of ", x: x, y: rect.y, style: Style(.muted), clip: rect)
            for culprit in m.ucs2Culprits.prefix(6) {
                x = canvas.put(String(culprit.character), x: x, y: rect.y, style: Style(.warning, .reverse), clip: rect) + 1
            }
        }
    }

    private func renderPreview(into canvas: inout Canvas, rect: Rect) {
        let who = model.previewRecipient.map { TerminalSafeText.sanitize($0.displayName) }
        var title = "Preview"
        if let who { title += " for \(who) (\(model.previewIndex + 1)/\(model.recipients.count), < >)" }
        let inside = canvas.box(rect, title: title)
        guard !inside.isEmpty else { return }
        let rendered = model.preview
        var lines = WrappedText.lines(TerminalSafeText.sanitize(rendered.text, singleLine: false), width: inside.width)
        if !rendered.missingFields.isEmpty {
            lines.append("(no value for " + rendered.missingFields.map { "{\($0)}" }.joined(separator: " ") + ")")
        }
        for (i, line) in lines.prefix(inside.height).enumerated() {
            canvas.put(line, x: inside.x, y: inside.y + i, style: .text, clip: inside)
        }
    }

    /// The view-model's marks as editor highlights (line and grapheme range).
    func highlights() -> [EditorHighlight] {
        var starts: [Int] = [0]
        var offset = 0
        for character in model.text {
            offset += 1
            if character == "\n" { starts.append(offset) }
        }
        var out: [EditorHighlight] = []
        for mark in model.marks {
            guard let line = starts.lastIndex(where: { $0 <= mark.range.lowerBound }) else { continue }
            let start = starts[line]
            let style: Style
            switch mark.kind {
            case .link: style = Style(.highlight, .bold)
            case .field(let known): style = Style(known ? .accent : .error, .bold)
            case .ucs2: style = Style(.warning, .reverse)
            }
            out.append(EditorHighlight(line: line, range: (mark.range.lowerBound - start)..<(mark.range.upperBound - start), style: style))
        }
        return out
    }

    private func syncEditor() {
        if editor.text != model.text { editor = EditorState(model.text) }
        if focus != .sender && sender.text != model.sender { sender = TextFieldState(model.sender) }
    }

    // MARK: input

    public var bindings: [PaneBinding] {
        let model = self.model
        if let field = fallbackField {
            // Typing a fallback inside the confirmation: enter takes it, esc drops it; other keys go to the field.
            return [PaneBinding(.finishEditing, footer: "use it") { self.commitFallback(field) },
                    PaneBinding(.back, footer: "cancel") { self.focus = .none }]
        }
        if let confirmation = model.confirmation {
            // A question: every other key is kept by it (capturesAllKeys), q still asks to quit. A send to many numbers
            // takes y only: enter on its Send button says so.
            let explicit = confirmation.needsExplicitYes
            return [
                PaneBinding(.yes, footer: explicit ? "send" : nil) { model.confirmSend() },
                PaneBinding(.pressButton, footer: explicit ? nil : "send") {
                    if self.confirmButton == 1 { model.cancelSend() } else if explicit {
                        model.notify("this sends to \(confirmation.destinations) numbers: type y to send", level: .info)
                    } else { model.confirmSend() }
                },
                PaneBinding(.no, footer: "cancel") { model.cancelSend() },
                PaneBinding(.back) { model.cancelSend() },
                PaneBinding(.switchButton) { self.confirmButton = 1 - self.confirmButton },
                PaneBinding(.sendTime, footer: model.channel == .sms ? "when" : nil) { model.cycleSendTime() },
            ] + declaredBindings
        }
        switch focus {
        case .text:
            return [PaneBinding(.finishEditing, footer: "done") { self.focus = .none },
                    PaneBinding(.send, footer: "send") { self.focus = .none; self.startSend() },
                    PaneBinding(.back) { self.focus = .none }]
        case .sender:
            return PaneBinding.each([.finishEditing, .back]) { self.focus = .none }
        case .none, .fallback:
            return declaredBindings
        }
    }

    // The keys that call these are refused (with the reason) while the message is read-only: see `keys`.
    private func insertPlaceholder() {
        syncEditor()
        editor.insert(model.linkPlaceholder)
        model.setText(editor.text)
    }

    private func beginEditing() {
        syncEditor()
        focus = .text
    }

    func startSend() {
        confirmButton = 0
        let model = self.model
        model.setRecipients(ids: recipientIds()) { model.prepareSend() }
    }

    /// `f` in the confirmation: type the fallback of the first missing field that has none.
    private func beginFallback() {
        guard let field = model.fieldsToFallBack.first else { return }
        fallback = TextFieldState("")
        focus = .fallback(field)
    }

    private func commitFallback(_ field: String) {
        focus = .none
        model.setFallback(field, fallback.text)
        if model.confirmation != nil, !model.fieldsWithoutFallback.isEmpty { beginFallback() }
    }

    public func handle(unboundKey key: Key) -> Bool {
        if let field = fallbackField {
            if key == .enter { commitFallback(field); return true }
            _ = fallback.handle(key)
            return true
        }
        if model.confirmation != nil { return true }     // the question keeps every key
        switch focus {
        case .text:
            syncEditor()
            guard editor.handle(key) else { return false }
            model.setText(editor.text)
            return true
        case .sender:
            if key == .enter { focus = .none; return true }
            guard sender.handle(key) else { return false }
            model.setSender(sender.text)
            return true
        case .none, .fallback:
            return false
        }
    }

    private func editExternally() {
        // Editing before the messages arrive would start from nothing, and the load would then overwrite the edit.
        guard !model.isLoading else { model.notify("the messages are still loading; press e again in a moment", level: .info); return }
        guard let suspendTerminal = suspendTerminal ?? model.context.terminal.suspend else {
            model.notify("no terminal to hand to $EDITOR here", level: .warning)
            return
        }
        do {
            let edited = try ExternalEditor.edit(model.text, environment: environment, suspend: suspendTerminal)
            model.setText(edited)
            syncEditor()
        } catch {
            model.notify(error.description, level: .error)
        }
    }

    public func handle(mouse: MouseEvent) -> Bool { false }

    /// Asks to send to these people with what the Composer is set to (Contacts' `I`): its confirmation opens here.
    public func invite(_ ids: [Int64]) {
        confirmButton = 0
        focus = .none
        let model = self.model
        if !loaded { loaded = true; model.load() }
        invitePending = true
        model.setRecipients(ids: ids) { [weak self] in
            self?.invitePending = false
            model.prepareSendWhenLoaded()
        }
    }

    public func didAppear() {
        // A confirmation asked for from Contacts keeps the people it was asked for.
        if model.confirmation == nil && !invitePending { model.setRecipients(ids: recipientIds()) }
        if !loaded {
            loaded = true
            model.load()
        }
    }

    public func handle(serviceEvent: ServiceEvent) -> Bool { model.handle(serviceEvent) }
}

extension ComposerPane: KeyDeclaring {
    /// The Composer's own keys, each whole, in the footer's order. ctrl-s applies while editing too: there the
    /// Composer's text and the Contacts form bind `send` themselves. Keys that change the text say why not while the
    /// application forbids it.
    public nonisolated static let keys: [PaneKey<ComposerPane>] = [
        PaneKey("edit_message", [.enter, .char("i")], "Edit the message", [.composer], footer: "edit",
                disabledReason: { $0.model.readOnlyReason }) { $0.beginEditing() },
        PaneKey("edit_external", [.char("e")], "Edit the message in $EDITOR", [.composer], footer: "$EDITOR",
                disabledReason: { $0.model.readOnlyReason }) { $0.editExternally() },
        PaneKey("next_template", [.char("]")], "The next message to start from (the templates, then those you saved)", [.composer],
                footer: "message") { $0.model.nextMessage() },
        PaneKey("edit_sender", [.char("s")], "Edit the sender ID", [.composer], footer: "sender") { $0.focus = .sender },
        PaneKey("cycle_signature", [.char("g")], "Next signature (or none)", [.composer], footer: "signature",
                disabledReason: { $0.model.readOnlyReason }) { $0.model.cycleSignature() },
        PaneKey("save_template", [.char("w")], "Save the message as a custom message", [.composer], footer: "save") {
            $0.model.saveAsCustom()
        },
        PaneKey("send", [.ctrl("s")], "Send the invitations", [.composer, .editor], footer: "send") { $0.startSend() },
        PaneKey("insert_placeholder", [.char("p")], "Insert a placeholder such as {firstName}", [.composer],
                disabledReason: { $0.model.readOnlyReason }) { $0.insertPlaceholder() },
        PaneKey("previous_template", [.char("[")], "The previous message to start from", [.composer]) { $0.model.previousMessage() },
        PaneKey("next_preview", [.char(">")], "Preview the message for the next recipient", [.composer]) { $0.model.nextPreview() },
        PaneKey("previous_preview", [.char("<")], "Preview the message for the previous recipient", [.composer]) {
            $0.model.previousPreview()
        },
        PaneKey("switch_channel", [.char("m")], "Switch between SMS and email invitations", [.composer]) { pane in
            pane.model.setChannel(pane.model.channel == .sms ? .email : .sms)
        },
        PaneKey("leave_out_missing", [.char("o")], "In the send confirmation: leave out who has no value for a personal field",
                [.composer, .question], footer: "leave out", listed: { $0.model.confirmation?.missing.isEmpty == false }) {
            $0.model.leaveOutMissing()
        },
        PaneKey("give_fallback", [.char("f")], "In the send confirmation: give a fallback to who has no value for a personal field",
                [.composer, .question], footer: "fallback", listed: { $0.model.confirmation?.missing.isEmpty == false }) {
            $0.beginFallback()
        },
    ]
}
