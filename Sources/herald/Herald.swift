import ArgumentParser
import HeraldAPI

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Invite your contacts, watch the invitations arrive, read your inbox.",
        discussion: "With no subcommand, opens the terminal UI on your workspace (--demo: on a throwaway demo workspace).",
        version: HeraldBuild.current.line,
        subcommands: [ContactsCommand.self, PlatformCommand.self, SendCommand.self, BulksCommand.self, DeliveriesCommand.self, OptOutCommand.self, AuditCommand.self, StatusCommand.self, WatchCommand.self, InboxCommand.self, RepliesCommand.self,
                      TemplatesCommand.self, SuggestCommand.self, ShareCommand.self, SandboxCommand.self,
                      ServeCommand.self, KeysCommand.self, ConfigCommand.self]
    )

    @Flag(name: .customLong("demo"), help: "Open a throwaway demo workspace (removed on exit unless --data-dir is given).")
    var demo = false

    @Option(name: .customLong("theme"), help: ArgumentHelp("Colour theme (default, light, …).", valueName: "name"), completion: LiveCompletions.themes)
    var theme: String?

    /// The same option group as the subcommands': ArgumentParser hands a parent's parsed group to its
    /// subcommands, so `herald status X --data-dir D` reaches `status` (a plain `@Option` here would take it).
    @OptionGroup var global: GlobalOptions

    /// Parses with the `--to` values of `send` taken out first (see `RecipientArguments`).
    static func main() async {
        PrivateFiles.restrictCreation()
        do { if try VersionFlag.handle(Array(CommandLine.arguments.dropFirst())) { return } } catch { exit(withError: error) }
        let arguments = RecipientArguments.extract(from: Array(CommandLine.arguments.dropFirst()))
        // Logs go to $XDG_STATE_HOME/herald/herald.log (the data folder does not move them).
        FileLogging.bootstrap(file: HeraldPaths.resolve(dataDirOption: nil).logFile)
        if let problem = FileLogging.sink?.problem {
            Output.warn("\(problem); nothing will be logged (set XDG_STATE_HOME)")
        }
        do {
            // Read-only mode refuses a command that changes something before it runs (a parse of its own: the command
            // run below is sent to its task untouched).
            try (parseAsRoot(arguments) as? any ChangingCommand)?.refuseWhenReadOnly()
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    mutating func run() async throws {
        try await UILauncher(demo: demo, options: global, themeName: theme).run()
    }
}
