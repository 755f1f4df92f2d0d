extension PaletteCommand {
    /// `:name YOUR NAME`: who invites, what `{SENDER_NAME}` says (the Composer asks for it here).
    static let name = PaletteCommand("name", argument: "YOUR NAME", summary: "who invites: fills {SENDER_NAME} (kept for the next sends)") {
        argument, screen throws(PaletteError) in
        guard let argument else { throw PaletteError(":name needs your name as invitations should say it, e.g. :name Ana Horvat") }
        screen.forward(to: .composer, as: ComposerPane.self) { $0.model.setSenderName(argument) }
    }
}
