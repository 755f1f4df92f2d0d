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

    @Option(help: ArgumentHelp("Make the new contacts cards of this address book of [[books]] (people merged keep their book).",
                               valueName: "name"))
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
        if let book {
            let known = try global.addressBooks(db, parser: parser).list().map(\.book.name)
            guard known.contains(book) else { throw Output.failure("--book: \(BookError.unknownBook(book, known: known))") }
            before = try contacts.lastPersonID()
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
        if let book {
            do {
                let moved = try contacts.move(ids: try contacts.personIDs(after: before), toBook: book)
                if !json { print("\(counted(moved, "new contact")) added to book \(Output.safe(book))") }
            } catch {
                throw Output.failure("the import is stored, but its new contacts could not join book \(Output.safe(book)): \(error)")
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
