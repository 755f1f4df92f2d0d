extension PaletteCommand {
    /// `:send`: the Composer's ctrl-s, its confirmation for the people chosen.
    static let send = PaletteCommand("send", summary: "send the composed invitations (Composer)") { _, screen in
        screen.forward(to: .composer, as: ComposerPane.self) { $0.startSend() }
    }
}
