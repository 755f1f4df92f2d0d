import ArgumentParser
import HeraldCore
import Foundation
import HeraldStore

/// `herald contacts import PATH…`.
struct ContactsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import contacts from a vCard file, a CSV file (Google, Outlook, plain) or a vdir folder.",
        discussion: "Importing again merges people by UID, else by a shared phone number or email.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files (.vcf, .csv) or folders of .vcf files; several at once, as a shell expands *.vcf.")
    var paths: [String]

    @Option(help: "auto, vcard, csv or vdir.")
    var format: String = "auto"

    @Option(help: "Country for numbers written without +code (e.g. HR); default from config or LANG.")
    var region: String?

    @Option(help: ArgumentHelp("Make the contacts cards of this address book of [[books]]: the new ones, and those merged into a contact of no book (one already in a book keeps it).",
                               valueName: "name"), completion: LiveCompletions.books)
    var book: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        guard let fmt = ImportFormat(rawValue: format.lowercased()) else {
            throw Output.failure("unknown format \"\(format)\": use auto, vcard, csv or vdir")
        }
        let parser = try global.phoneParser(region: region)
        let db = try global.openDatabase()
        let contacts = ContactStore(database: db)
        var before: Int64 = 0
        var books: AddressBooks?
        if let book {
            let registered = try global.addressBooks(db, parser: parser)
            let known = try registered.list().map(\.book.name)
            guard known.contains(book) else { throw Output.failure("--book: \(BookError.unknownBook(book, known: known))") }
            before = try contacts.lastPersonID()
            books = registered
        }
        var importer = ContactImporter(database: db, parser: parser)
        let folder = global.paths.dataDirectory.path
        importer.onWaitingForOtherImport = {
            Output.note("waiting for another import into \(folder) to finish (imports run one at a time so nobody is added twice)")
        }
        // Each path is imported in turn; one that cannot be read is named and the others still go in.
        var report = ImportReport()
        var failures: [String] = []
        for path in paths {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            do {
                report.absorb(try importer.importContacts(from: url, format: fmt))
            } catch let e as ImportError {
                failures.append(e.description)
            } catch {
                failures.append("import of \(Output.safe(path)) stopped: \(StorageFailure.message(for: error) ?? String(describing: error))")
            }
        }
        if failures.count == paths.count, let first = failures.first {
            throw Output.failure(failures.count == 1 ? first : failures.joined(separator: "\n"))
        }
        if let book, let books {
            do {
                let new = try contacts.personIDs(after: before)
                // People the cards merged into join the book when they were of none; one in a book keeps it.
                var seen = Set(new)
                let joining = try report.mergedInto.filter { id in
                    guard seen.insert(id).inserted else { return false }
                    return try books.card(personId: id) == nil
                }
                let moved = try contacts.move(ids: new + joining, toBook: book)
                if !json {
                    let merged = joining.isEmpty ? "" : " (\(counted(joining.count, "of them", "of them")) merged into a contact of no book)"
                    print("\(counted(moved, "contact")) added to book \(Output.safe(book))\(merged)")
                }
            } catch {
                throw Output.failure("the import is stored, but its contacts could not join book \(Output.safe(book)): \(error)")
            }
        }
        if json {
            try Output.printJSON(report)
        } else {
            printSummary(report)
        }
        if !failures.isEmpty { throw Output.failure(failures.joined(separator: "\n")) }
    }

    private func printSummary(_ report: ImportReport) {
        print("\(report.imported) imported, \(report.updated) updated, \(report.skipped) skipped")
        if report.numbersNeedingRegion > 0 {
            Output.warn("""
                \(counted(report.numbersNeedingRegion, "number")) \(report.numbersNeedingRegion == 1 ? "has" : "have") no country code and no region was known to read them: \
                import again with --region CC (for example --region US); the same people are updated in place
                """)
        }
        if !report.errors.isEmpty {
            FileHandle.standardError.write(Data("\(counted(report.errors.count, "problem")):\n".utf8))
            for e in report.errors {
                FileHandle.standardError.write(Data("  \(Output.safe(e.file)):\(e.line): \(Output.safe(e.message))\n".utf8))
            }
        }
    }
}
