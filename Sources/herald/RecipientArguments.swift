/// `herald send --to …` with thousands of recipients: ArgumentParser takes time quadratic in the
/// number of values (2,500 `--to` took 10 s), so the values of `--to` are taken out of the command
/// line before it parses the rest. Linear: 10,000 recipients take milliseconds.
enum RecipientArguments {
    /// Root options that take a value (so their value is not mistaken for the subcommand).
    static let rootOptionsWithValue: Set<String> = ["--data-dir", "--theme"]

    nonisolated(unsafe) private(set) static var targets: [String] = []

    /// The command line without the `--to` values of a `send` subcommand, which are kept in `targets`.
    static func extract(from arguments: [String]) -> [String] {
        var i = 0
        while i < arguments.count, arguments[i].hasPrefix("-") {
            if arguments[i] == "--" { return arguments }
            i += rootOptionsWithValue.contains(arguments[i]) ? 2 : 1
        }
        guard i < arguments.count, arguments[i] == "send" else { return arguments }
        var kept = Array(arguments[...i])
        var found: [String] = []
        var j = i + 1
        while j < arguments.count {
            let a = arguments[j]
            if a == "--" {
                kept += arguments[j...]
                break
            }
            if a.hasPrefix("--to=") {
                found.append(String(a.dropFirst(5)))
                j += 1
            } else if a == "--to" {
                j += 1
                let start = j
                while j < arguments.count, !arguments[j].hasPrefix("-") { j += 1 }
                if j == start { kept.append(a) } else { found += arguments[start..<j] }  // bare --to: let the parser say so
            } else {
                kept.append(a)
                j += 1
            }
        }
        targets = found
        return kept
    }
}
