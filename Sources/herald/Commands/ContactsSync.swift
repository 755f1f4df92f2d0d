import ArgumentParser
import Foundation
import HeraldCardDAV
import HeraldCore
import HeraldStore

/// `herald contacts sync [BOOK]`: reads the address books of `[[books]]` into Herald.
struct ContactsSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Read the address books of [[books]] (cards added, changed or removed elsewhere).",
        discussion: """
            A vdir book is a folder of .vcf files, one per contact, as khard and vdirsyncer keep them. New files become \
            contacts, changed files update theirs, removed files remove theirs; a card that cannot be read is reported \
            with its file and line and its contact is left as it was. Herald's own edits of a book's contacts are \
            written back to their files at once. The terminal UI syncs by itself whenever a book's folder changes.
            A CardDAV book sends Herald's changes first (If-Match, so nothing the server changed is overwritten), then \
            reads the server's (sync-collection); a card changed on both sides keeps the server's version and Herald's \
            is kept as a conflict: herald contacts conflicts lists them, herald contacts resolve ID --mine|--theirs \
            settles one.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The book to sync (default: every book).", completion: LiveCompletions.books)
    var book: String?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let db = try global.openDatabase()
        let parser = try global.phoneParser(region: nil)
        let books = try global.addressBooks(db, parser: parser)
        let accounts = try global.config().bookAccounts
        let names = try books.list().map(\.book.name)
        guard !names.isEmpty else {
            throw Output.failure("no address books are configured: add [[books]] with name, kind = \"vdir\" and path to \(global.paths.configFile.path)")
        }
        let wanted: [String]
        if let book {
            guard let found = names.first(where: { $0.lowercased() == book.lowercased() }) else {
                throw Output.failure("\(BookError.unknownBook(book, known: names))")
            }
            wanted = [found]
        } else {
            wanted = names
        }
        var reports: [BookSyncReport] = []
        var failed = 0
        let kinds = Dictionary(try books.list().map { ($0.book.name, $0.book.kind) }, uniquingKeysWith: { a, _ in a })
        for name in wanted {
            do {
                if kinds[name] == .carddav, let account = accounts[name] {
                    reports.append(try await CardDAVSync(books: books, account: account).sync(name))
                } else {
                    reports.append(try books.sync(name))
                }
            } catch {
                Output.warn("\(error)")
                failed += 1
            }
        }
        if json {
            try Output.printJSON(reports.map(SyncJSON.init))
        } else {
            for r in reports {
                print("\(Output.safe(r.book)): \(r.added) added, \(r.updated) updated, \(r.removed) removed, \(r.unchanged) unchanged"
                      + (r.pushed > 0 ? ", \(r.pushed) sent" : "")
                      + (r.conflicts > 0 ? ", \(counted(r.conflicts, "conflict")) (herald contacts conflicts)" : "")
                      + (r.issues.isEmpty ? "" : ", \(counted(r.issues.count, "problem"))"))
                for issue in r.issues { print("  \(Output.safe(issue.file)):\(issue.line): \(Output.safe(issue.message))") }
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }
}

/// One book's sync in `contacts sync --json`.
struct SyncJSON: Encodable {
    struct Problem: Encodable { var file: String; var line: Int; var message: String }
    var book: String
    var added: Int
    var updated: Int
    var removed: Int
    var unchanged: Int
    var pushed: Int
    var conflicts: Int
    var errors: [Problem]

    init(_ r: BookSyncReport) {
        book = r.book
        added = r.added
        updated = r.updated
        removed = r.removed
        unchanged = r.unchanged
        pushed = r.pushed
        conflicts = r.conflicts
        errors = r.issues.map { Problem(file: $0.file, line: $0.line, message: $0.message) }
    }
}
