import ArgumentParser

/// `herald config`: what config.toml may hold.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "What config.toml may hold.", subcommands: [ConfigKeysCommand.self])
}

/// `herald config keys`: every key of config.toml with what it takes and the variable that overrides it, from the
/// declarations the parser reads (`ConfigKeys`); `--markdown` prints the reference of docs/config.md (`make docs`).
struct ConfigKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List every key config.toml may hold, what it takes and what overrides it.")
    @Flag(help: "Print Markdown (the reference in docs/config.md).") var markdown = false

    mutating func run() async throws {
        if markdown {
            print(ConfigReference.markdown, terminator: "")
            return
        }
        for key in ConfigKeys.all {
            print("\(key.name) = \(key.example)")
            print("    \(key.help) Takes \(key.expectation).\(key.environment.map { " \($0) overrides it." } ?? "")")
        }
        for table in ConfigKeys.tables.sorted() {
            print("[\(table)]")
            print("    A table of its own: docs/config.md describes it.")
        }
    }
}
