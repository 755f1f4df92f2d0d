import HeraldViewModels

/// One command of the `:` palette (model: aerc's `commands/`, a command per file registered in one list): its name
/// and aliases, its argument, what it does, what completes the argument and what running it does. Each command is
/// declared in its own file under `Palette/Commands` as a `static let` and listed once in `PaletteCommand.all`.
public struct PaletteCommand {
    /// What is typed after `:`; completion offers it.
    public let name: String
    /// Other names that run it (`q` for `quit`); completion leaves them out.
    public let aliases: [String]
    /// The argument as the completions show it (`NAME`, `first|last`); nil: the command takes none.
    public let argument: String?
    /// What the command does, for the error that lists the commands.
    public let summary: String
    /// The arguments tab completes (the theme names, the pane names), from what the palette knows now.
    let choices: (CommandPalette) -> [String]
    /// Checks the argument, then does the work on the screen; throws what was wrong with the line (an error
    /// toast) before anything moves.
    let run: (_ argument: String?, _ screen: AppScreen) throws(PaletteError) -> Void

    init(_ name: String, aliases: [String] = [], argument: String? = nil, summary: String,
         choices: @escaping (CommandPalette) -> [String] = { _ in [] },
         run: @escaping (_ argument: String?, _ screen: AppScreen) throws(PaletteError) -> Void) {
        self.name = name
        self.aliases = aliases
        self.argument = argument
        self.summary = summary
        self.choices = choices
        self.run = run
    }

    /// True when `word` (lower case) names this command.
    func isNamed(_ word: String) -> Bool { word == name || aliases.contains(word) }
}

/// What was wrong with a palette command, for an error toast.
nonisolated public struct PaletteError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
