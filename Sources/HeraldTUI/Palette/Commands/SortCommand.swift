import HeraldViewModels

extension PaletteCommand {
    /// `:sort ORDER`: the order of Contacts (first, last); an order of Deliveries is refused there with a hint.
    static let sort = PaletteCommand("sort", argument: "first|last|newest|oldest|most-failed|most-pending",
                                     summary: "sort contacts by first or last name, deliveries by time or by failed or pending recipients",
                                     choices: { _ in sortNames }) { argument, screen throws(PaletteError) in
        let order = argument?.lowercased().split(separator: " ").joined(separator: "-")
        guard let order, sortNames.contains(order) else {
            throw PaletteError(":sort takes first or last (Contacts), or \(DeliverySort.allCases.map(\.name).joined(separator: ", ")) (Deliveries)")
        }
        screen.forward(to: .contacts, as: ContactsPane.self) { $0.viewModel.setSort(named: order) }
    }

    private static let sortNames = ["first", "last"] + DeliverySort.allCases.map(\.name)
}
