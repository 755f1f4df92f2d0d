import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts move ID… --to BOOK` (or `--no-book`).
struct ContactsMove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move contacts to another address book of [[books]], or out of every book.",
        discussion: """
            A contact leaves its book (a vdir card file is removed; a CardDAV card is deleted at the next sync) and \
            becomes a new card of the other book, with its UID; its invitations stay.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contacts' ids.", completion: LiveCompletions.contactIDs)
    var ids: [Int64]

    @Option(name: .customLong("to"), help: ArgumentHelp("The book to move them to.", valueName: "book"), completion: LiveCompletions.books)
    var book: String?

    @Flag(help: "Keep them as contacts of no book.")
    var noBook = false

    func run() async throws {
        guard (book != nil) != noBook else { throw Output.failure("say where: --to BOOK, or --no-book") }
        let db = try global.openDatabase()
        _ = try global.addressBooks(db, parser: try global.phoneParser(region: nil))
        do {
            let moved = try ContactStore(database: db).move(ids: ids, toBook: book)
            print("moved \(counted(moved, "contact")) \(book.map { "to book \(Output.safe($0))" } ?? "out of their books")")
        } catch let error as ContactStoreError {
            throw Output.failure("\(error); nothing was moved")
        } catch let error as BookError {
            throw Output.failure("\(error); nothing was moved")
        }
    }
}
