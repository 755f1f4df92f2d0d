import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts add [NAME] --phone … --email …`: a new contact, checked as the editor's card is.
struct ContactsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a contact.",
        discussion: """
            NAME is split into first and last name at its last space ("Ana Marija Kovač": first "Ana Marija", last \
            "Kovač"; "Kovač, Ana" is read as last, first); --first and --last say it exactly. A number or address someone already has is added all the \
            same, and the other person is named so the two can be merged.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's name.")
    var name: String?

    @OptionGroup var fields: ContactFieldOptions

    @Option(help: "The region for numbers without a country code (ISO 3166 code, e.g. HR, US).")
    var region: String?

    @Option(help: ArgumentHelp("Add the contact to this address book of [[books]] (a vdir book gets its card file).", valueName: "name"), completion: LiveCompletions.books)
    var book: String?

    @Flag(help: "Print the new contact as JSON.")
    var json = false

    func run() async throws {
        var draft = ContactDraft()
        if let name {
            let (first, last) = ContactDraft.nameParts(name)
            do throws(ContactDraft.Problem) {
                draft.firstName = try ContactDraft.text(first, "NAME")
                draft.lastName = try ContactDraft.text(last, "NAME")
            } catch { throw Output.failure(error.description) }
        }
        do throws(ContactDraft.Problem) { draft = try fields.applied(to: draft) } catch {
            throw Output.failure("\(error.description); nothing was added")
        }
        let parser = try global.phoneParser(region: region)
        let db = try global.openDatabase()
        let store = ContactStore(database: db)
        if book != nil { _ = try global.addressBooks(db, parser: parser) }
        let person: Person
        do { person = try store.add(draft, parser: parser, book: book) } catch let error as BookError {
            throw Output.failure("\(error); nothing was added")
        }
        let id = person.id ?? 0
        ContactFieldOptions.warnUninvitable(person.phones)
        for e164 in person.phones.compactMap(\.number.e164) {
            for other in try store.personIDs(withNumber: e164) where other != id {
                Output.note("\(e164) is also the number of contact \(other): merge them with `herald contacts merge \(other) \(id)`")
            }
        }
        if json {
            try Output.printJSON(ContactJSON(person, database: db))
        } else {
            print("added \(Output.safe(person.displayName)) (id \(id))\(book.map { " to book \(Output.safe($0))" } ?? "")")
        }
    }
}
