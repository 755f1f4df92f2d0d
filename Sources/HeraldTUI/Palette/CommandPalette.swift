/// Finding and completing palette commands over the registered list. Pure: the shell gives the theme names it
/// listed when the palette opened.
public struct CommandPalette {
    /// Theme names that `:theme` completes and accepts.
    public var themeNames: [String]
    /// The commands it knows, in completion order.
    public let commands: [PaletteCommand]

    public init(themeNames: [String], commands: [PaletteCommand] = PaletteCommand.all) {
        self.themeNames = themeNames
        self.commands = commands
    }

    /// The command a line names and its argument (the words after the name, one space apart), or what was wrong.
    public func parse(_ line: String) -> Result<(command: PaletteCommand, argument: String?), PaletteError> {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first?.lowercased() else { return .failure(PaletteError("type a command, e.g. :theme light")) }
        guard let command = commands.first(where: { $0.isNamed(name) }) else {
            return .failure(PaletteError("unknown command \"\(name)\": try \(commands.map { ":" + $0.name }.joined(separator: " "))"))
        }
        let rest = words.dropFirst().joined(separator: " ")
        return .success((command, rest.isEmpty ? nil : rest))
    }

    /// Whole command lines that complete `line`, in the commands' order; empty when nothing fits.
    public func completions(for line: String) -> [String] {
        let endsWithSpace = line.last?.isWhitespace ?? false
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if words.isEmpty { return commands.map(\.name) }
        if words.count == 1 && !endsWithSpace {
            let prefix = words[0].lowercased()
            return commands.map(\.name).filter { $0.hasPrefix(prefix) }
        }
        let name = words[0].lowercased()
        guard let command = commands.first(where: { $0.name == name }) else { return [] }
        let partial = endsWithSpace ? "" : (words.count > 1 ? words[words.count - 1] : "")
        return command.choices(self).filter { $0.lowercased().hasPrefix(partial.lowercased()) }.map { "\(name) \($0)" }
    }

    /// The line after pressing tab: the only completion, else the longest common prefix.
    public func complete(_ line: String) -> String {
        let all = completions(for: line)
        guard let first = all.first else { return line }
        if all.count == 1 {
            let takesArgument = commands.first { $0.name == first }?.argument != nil
            return takesArgument ? first + " " : first
        }
        var prefix = first
        for other in all.dropFirst() {
            while !other.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix.count > line.count ? prefix : line
    }

    /// The argument shown beside a completed command name ("  NAME"), empty for anything else.
    func argumentHint(for option: String) -> String {
        commands.first { $0.name == option }.map { "  " + ($0.argument ?? "") } ?? ""
    }
}
