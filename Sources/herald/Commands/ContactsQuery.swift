import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts query TEXT`: email addresses for a mail program's address completion, as khard gives them.
/// aerc's `address-book-cmd` takes the plain form (`address<TAB>name` a line); mutt's and neomutt's `query_command`
/// take `--mutt` (a first line for the status bar, then `address<TAB>name<TAB>label`).
struct ContactsQuery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Email addresses of the people matching a search, for mutt, neomutt and aerc.",
        discussion: """
            mutt/neomutt:  set query_command = "herald contacts query --mutt %s"
            aerc:          address-book-cmd = herald contacts query "%s"
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Names, organisation, email or digits of a number; case and accents are ignored.")
    var text: String

    @Flag(help: "mutt's query_command format: a first line, then address, name and label separated by tabs.")
    var mutt = false

    func run() async throws {
        let store = ContactStore(database: try global.openDatabase())
        let lines = try store.search(text).people.flatMap(Self.lines(for:))
        if mutt {
            // mutt shows the first line in its status bar and lists the rest.
            print(lines.isEmpty ? "No email address matches \"\(Output.safe(text))\"."
                                : "\(counted(lines.count, "email address", "email addresses")) matching \"\(Output.safe(text))\":")
            for line in lines { print([line.address, line.name, line.label].joined(separator: "\t")) }
        } else {
            for line in lines { print([line.address, line.name].joined(separator: "\t")) }
        }
    }

    /// One line per email address of `person`; every field on one line, without tabs or control characters.
    static func lines(for person: Person) -> [(address: String, name: String, label: String)] {
        let name = Output.safe(person.displayName)
        return person.emails.compactMap { email in
            let address = Output.safe(email.address).trimmingCharacters(in: .whitespaces)
            guard !address.isEmpty, !address.contains(" ") else { return nil }
            return (address, name, Output.safe(email.label ?? ""))
        }
    }
}
