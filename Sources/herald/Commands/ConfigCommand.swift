import ArgumentParser

/// `herald config`: check config.toml, show what is in effect and where each value came from, list every key.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Check config.toml, show the configuration in effect, list the keys it may hold.", subcommands: [ConfigCheckCommand.self, ConfigShowCommand.self, ConfigKeysCommand.self])
}

/// `herald config keys`: every key of config.toml with what it takes and the variable that overrides it, from the
/// declarations the parser reads (`ConfigKeys`); `--markdown` prints the reference of docs/config.md (`make docs`).
struct ConfigKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List every key config.toml may hold, what it takes and what overrides it.")
    @Flag(help: "Print Markdown (the reference in docs/config.md).") var markdown = false
    @Flag(help: "Print the man page herald-config(5) (roff).") var man = false

    mutating func run() async throws {
        if markdown || man {
            print(man ? ConfigReference.manPage : ConfigReference.markdown, terminator: "")
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
