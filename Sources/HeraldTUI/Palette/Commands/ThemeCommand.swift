extension PaletteCommand {
    /// `:theme NAME`: switches the colour theme.
    static let theme = PaletteCommand("theme", argument: "NAME", summary: "switch the colour theme",
                                      choices: { $0.themeNames }) { argument, screen throws(PaletteError) in
        let names = screen.paletteModel.themeNames
        guard let argument else { throw PaletteError(":theme needs a name: \(names.joined(separator: ", "))") }
        // The names are listed off the UI thread when the palette opens; a line typed before they arrive goes to the
        // loader, which says what is wrong with a name it cannot load.
        guard names.isEmpty || names.contains(argument) else {
            throw PaletteError("no theme \"\(argument)\" (available: \(names.joined(separator: ", ")))")
        }
        screen.switchTheme(argument)
    }
}
