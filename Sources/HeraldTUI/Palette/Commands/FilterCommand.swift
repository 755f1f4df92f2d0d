import HeraldViewModels

extension PaletteCommand {
    /// `:filter STATE`: Deliveries shows the bulks in that state.
    static let filter = PaletteCommand("filter", argument: "all|pending|invited|failed", summary: "filter deliveries by status",
                                       choices: { _ in filterNames }) { argument, screen throws(PaletteError) in
        guard let argument, let filter = DeliveryFilter(name: argument) else {
            throw PaletteError(":filter takes \(filterNames.joined(separator: ", "))")
        }
        screen.forward(to: .deliveries, as: DeliveriesPane.self) { $0.viewModel.setFilter(filter) }
    }

    private static let filterNames = DeliveryFilter.allCases.map(\.rawValue)
}
