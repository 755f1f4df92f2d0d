import ArgumentParser

/// `herald contacts books …`: the address books of `[[books]]` and the servers they live on.
struct ContactsBooks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books", abstract: "Find the address books on a CardDAV server.",
        subcommands: [ContactsBooksDiscover.self])
}
