extension PaletteCommand {
    /// `:move TIME`: the held bulk under the cursor in Deliveries leaves at another time.
    static let move = PaletteCommand("move", argument: "TIME",
                                     summary: "move the held bulk under the cursor: 09:00, +2h, 2026-12-01 09:00 (Deliveries)") {
        argument, screen throws(PaletteError) in
        guard let argument else { throw PaletteError(":move needs a time, e.g. :move 09:00, :move +2h or :move 2026-12-01 09:00") }
        screen.forward(to: .deliveries, as: DeliveriesPane.self) { $0.viewModel.move(to: argument) }
    }
}
