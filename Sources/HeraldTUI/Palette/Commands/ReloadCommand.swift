extension PaletteCommand {
    /// `:reload`: ctrl-r, the focused pane reads its data again.
    static let reload = PaletteCommand("reload", summary: "read the pane's data again now") { _, screen in
        screen.reloadFocusedPane()
    }
}
