import HeraldCore

extension PaletteCommand {
    /// `:save NAME`: Contacts keeps the search typed as a segment, evaluated again whenever it is used.
    static let save = PaletteCommand("save", argument: "NAME", summary: "save the contacts search as a segment") {
        argument, screen throws(PaletteError) in
        guard let argument, !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw PaletteError(":save needs a name for the search, e.g. :save runners (segment:runners finds them again)")
        }
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.viewModel.saveSegment(argument) }
    }

    /// `:segment NAME`: Contacts lists the people a saved segment finds now (the search `segment:NAME`).
    static let segment = PaletteCommand("segment", argument: "NAME", summary: "list the people a saved segment finds now") {
        argument, screen throws(PaletteError) in
        guard let argument, !argument.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw PaletteError(":segment needs a saved segment's name (save one with :save NAME)")
        }
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.showList(matching: "segment:" + ContactQuery.quoted(argument)) }
    }
}
