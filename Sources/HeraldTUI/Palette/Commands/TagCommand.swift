extension PaletteCommand {
    /// `:tag GROUP` (`:tag -GROUP` takes out): Contacts puts the selection, or the person open or under the cursor, in
    /// a group (vCard CATEGORIES; a booked person's card says so).
    static let tag = PaletteCommand("tag", argument: "GROUP", summary: "put the selected people in a group (-GROUP takes them out)") {
        argument, screen throws(PaletteError) in
        guard let argument, !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw PaletteError(":tag needs a group name, e.g. :tag Running club (:tag -NAME takes people out)")
        }
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.viewModel.tag(argument) }
    }
}
