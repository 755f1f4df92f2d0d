extension PaletteCommand {
    /// `:quit` (`:q`, `:exit`): quits, asking first when something would be lost.
    static let quit = PaletteCommand("quit", aliases: ["q", "exit"], summary: "quit Herald") { _, screen in
        screen.askBeforeQuitting()
    }
}
