import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts conflicts`: CardDAV cards changed both here and on the server.
struct ContactsConflicts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "List the cards changed both here and on their CardDAV server.",
        discussion: "Each contact shows the server's version; Herald's is printed below it. Settle one with herald contacts resolve.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let db = try global.openDatabase()
        let books = try global.addressBooks(db, parser: try global.phoneParser(region: nil))
        let conflicts = try books.conflicts()
        guard !conflicts.isEmpty else {
            print("No conflicts: every card is the same here and on its server.")
            return
        }
        let people = try ContactStore(database: db).people(ids: conflicts.map(\.personId))
        for conflict in conflicts {
            let name = people.first { $0.id == conflict.personId }?.displayName ?? ""
            print("\(conflict.personId)  \(Output.safe(name))  (book \(Output.safe(conflict.book))): the server's version is stored; Herald's was:")
            for line in conflict.mine.split(whereSeparator: \.isNewline) { print("    \(Output.safe(String(line)))") }
            print("  keep it: herald contacts resolve \(conflict.personId) --mine    keep the server's: … --theirs")
        }
    }
}

/// `herald contacts resolve ID --mine|--theirs`.
struct ContactsResolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Settle a conflict: keep Herald's version of the card (sent at the next sync) or the server's.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's id (herald contacts conflicts lists them).", completion: LiveCompletions.contactIDs)
    var id: Int64

    @Flag(help: "Keep Herald's version: it goes to the server at the next sync.")
    var mine = false

    @Flag(help: "Keep the server's version, already stored.")
    var theirs = false

    func run() async throws {
        guard mine != theirs else { throw Output.failure("say which version to keep: --mine or --theirs") }
        let db = try global.openDatabase()
        let books = try global.addressBooks(db, parser: try global.phoneParser(region: nil))
        guard try books.resolve(personId: id, keepMine: mine) else {
            throw Output.failure("contact \(id) has no conflict: herald contacts conflicts lists those that do")
        }
        print(mine ? "kept Herald's version of contact \(id): herald contacts sync sends it" : "kept the server's version of contact \(id)")
    }
}
