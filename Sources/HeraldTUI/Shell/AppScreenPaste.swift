/// Pasted text and the keys a question must not take (the rules in `QuestionGuard`).
extension AppScreen {
    /// A paste goes into the focused text field as text; outside one it starts the pane's search with it (its lines
    /// joined by spaces), or is ignored with a note: it never runs a key binding.
    func paste(_ text: String) -> Bool {
        let pane = focusedPane
        guard help == nil else { return ignorePaste() }
        if pane.keyContext.isTextEntry {
            return pane.handle(unboundKey: .paste(text)) ? true : ignorePaste()
        }
        guard pane.bindings.contains(where: { $0.action == .search }), pane.handle(action: .search),
              pane.keyContext.isTextEntry, pane.handle(unboundKey: .paste(text)) else { return ignorePaste() }
        return true
    }

    private func ignorePaste() -> Bool {
        app.toasts.post("pasted text ignored: no text field is open here (a paste never runs keys)", level: .info)
        return true
    }

    /// A key the open question may not take: dropped, and said once per question.
    func refuseForQuestion(_ key: Key, guard questionGuard: inout QuestionGuard) {
        let note: String
        if case .paste = key {
            note = "a paste does not answer a question: answer it with its keys"
        } else {
            guard questionGuard.shouldTell() else { return }
            note = "keys typed before the question was shown were ignored: answer it now"
        }
        app.toasts.post(note, level: .warning)
    }
}
