import HeraldViewModels

extension PaletteCommand {
    /// `:pane NAME` (or its number, or the start of its name): goes to that pane.
    static let pane = PaletteCommand("pane", argument: "NAME", summary: "go to a pane (contacts, share, composer, inbox, deliveries)",
                                     choices: { _ in paneNames }) { argument, screen throws(PaletteError) in
        guard let argument else { throw PaletteError(":pane needs a name: \(paneNames.joined(separator: ", "))") }
        if let n = Int(argument), let id = PaneID(rawValue: n - 1) { screen.focus(id); return }
        guard let id = PaneID.allCases.first(where: { $0.name.hasPrefix(argument.lowercased()) }) else {
            throw PaletteError("no pane \"\(argument)\" (panes: \(paneNames.joined(separator: ", ")))")
        }
        screen.focus(id)
    }

    private static let paneNames = PaneID.allCases.map(\.name)
}
