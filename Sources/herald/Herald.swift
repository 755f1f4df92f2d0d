import ArgumentParser

@main
struct Herald: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "herald",
        abstract: "Invite your contacts, watch the invitations arrive, read your inbox.",
        subcommands: []
    )
}
