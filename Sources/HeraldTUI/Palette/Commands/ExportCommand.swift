extension PaletteCommand {
    /// `:export FILE`: Deliveries writes what it shows (the query; in an open bulk, its recipients; the state filter)
    /// to FILE: CSV, or TSV / JSON by the name's extension.
    static let export = PaletteCommand("export", argument: "FILE",
                                       summary: "write what Deliveries shows to FILE (.csv, .tsv or .json)") { argument, screen throws(PaletteError) in
        guard let argument, !argument.isEmpty else {
            throw PaletteError(":export needs a file, e.g. :export ~/failed.csv (.tsv and .json by the name)")
        }
        screen.forward(to: .deliveries, as: DeliveriesPane.self) { $0.viewModel.export(to: argument) }
    }
}
