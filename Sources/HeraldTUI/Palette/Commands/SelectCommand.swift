import HeraldCore

extension PaletteCommand {
    /// `:select STATE`: Contacts selects the people shown in that state.
    static let select = PaletteCommand("select", argument: "not-invited|pending|invited|failed",
                                       summary: "select the contacts shown in that state",
                                       choices: { _ in selectNames }) { argument, screen throws(PaletteError) in
        guard let argument, let state = StateSelection(name: argument) else {
            throw PaletteError(":select takes \(selectNames.joined(separator: ", "))")
        }
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.viewModel.select(state) }
    }

    private static let selectNames = StateSelection.allCases.map(\.rawValue)
}
