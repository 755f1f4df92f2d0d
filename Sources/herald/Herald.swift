import ArgumentParser

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Invite your contacts, watch the invitations arrive, read your inbox.",
        discussion: "With no subcommand, opens the terminal UI on your workspace (--demo: on a throwaway demo workspace).",
        subcommands: [ContactsCommand.self, SendCommand.self, StatusCommand.self, WatchCommand.self, InboxCommand.self,
                      TemplatesCommand.self, SuggestCommand.self, ShareCommand.self, SandboxCommand.self]
    )

    @Flag(name: .customLong("demo"), help: "Open a throwaway demo workspace (removed on exit unless --data-dir is given).")
    var demo = false

    @Option(name: .customLong("theme"), help: ArgumentHelp("Colour theme (default, light, …).", valueName: "name"))
    var theme: String?

    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Folder for Herald's data (default: $HERALD_DATA_DIR, else $XDG_DATA_HOME/herald).", valueName: "dir"))
    var dataDir: String?

    mutating func run() async throws {
        try await UILauncher(demo: demo, dataDir: dataDir, themeName: theme).run()
    }
}
