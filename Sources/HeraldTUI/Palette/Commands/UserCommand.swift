extension PaletteCommand {
    /// `:user ID`: reads that external user's inbox.
    static let user = PaletteCommand("user", argument: "ID", summary: "read this user's inbox") { argument, screen throws(PaletteError) in
        guard let argument else { throw PaletteError(":user needs a user id, e.g. :user alice") }
        screen.forward(to: .inbox, as: InboxPane.self) { $0.read(user: argument) }
    }
}
