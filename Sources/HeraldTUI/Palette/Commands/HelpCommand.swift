extension PaletteCommand {
    /// `:help` (`:h`): the keys of the focused pane, as `?` shows them.
    static let help = PaletteCommand("help", aliases: ["h"], summary: "show the keys") { _, screen in
        screen.showHelp()
    }
}
