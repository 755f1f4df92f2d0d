extension PaletteCommand {
    /// `:search TEXT` (`:find`): Contacts shows only the people matching the text (none: everyone).
    static let search = PaletteCommand("search", aliases: ["find"], argument: "TEXT", summary: "search contacts") { argument, screen in
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.showMatches(of: argument ?? "") }
    }
}
