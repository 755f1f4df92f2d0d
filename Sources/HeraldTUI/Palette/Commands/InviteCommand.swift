extension PaletteCommand {
    /// `:invite`: Contacts' `I`, the selected people to the Composer's confirmation.
    static let invite = PaletteCommand("invite", summary: "invite the selected people (Contacts)") { _, screen in
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.invite() }
    }
}
