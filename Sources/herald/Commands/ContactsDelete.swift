import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts delete ID…`: removes contacts (their invitations stay in the ledger, by number). Asks first on a
/// terminal; elsewhere `--yes` is needed, so a script cannot delete by mistake.
struct ContactsDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete contacts.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contacts' ids, as `contacts list` prints them.", completion: LiveCompletions.contactIDs)
    var ids: [Int64]

    @Flag(name: [.customShort("y"), .long], help: "Delete without asking.")
    var yes = false

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one contact id") }
    }

    func run() async throws {
        let store = ContactStore(database: try global.openDatabase())
        let people: [Person]
        do { people = try store.existingPeople(ids: ids) } catch let error as ContactStoreError {
            throw Output.failure("\(error.description); nothing was deleted")
        }
        let names = people.map { "\(Output.safe($0.displayName)) (id \($0.id ?? 0))" }.joined(separator: ", ")
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Output.failure("deleting \(names) needs a yes: pass --yes when not at a terminal")
            }
            FileHandle.standardError.write(Data("Delete \(names)? [y/N] ".utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmedSpaces.lowercased()) else {
                Output.note("nothing was deleted")
                return
            }
        }
        let deleted = try store.delete(ids: people.compactMap(\.id))
        for person in deleted { print("deleted \(Output.safe(person.displayName)) (id \(person.id ?? 0))") }
        if deleted.contains(where: { !$0.phones.isEmpty }) {
            Output.note("their invitations stay in the ledger; `herald status` still shows them")
        }
    }
}
