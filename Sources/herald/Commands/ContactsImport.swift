import ArgumentParser
import Foundation
import HeraldStore

/// `herald contacts import PATH`.
struct ContactsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import contacts from a vCard file, a CSV file (Google, Outlook, plain) or a vdir folder.",
        discussion: "Importing again merges people by UID, else by a shared phone number or email.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A .vcf or .csv file, or a folder of .vcf files.")
    var path: String

    @Option(help: "auto, vcard, csv or vdir.")
    var format: String = "auto"

    @Option(help: "Country for numbers written without +code (e.g. HR); default from config or LANG.")
    var region: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        guard let fmt = ImportFormat(rawValue: format.lowercased()) else {
            throw Output.failure("unknown format \"\(format)\": use auto, vcard, csv or vdir")
        }
        let parser = try global.phoneParser(region: region)
        let db = try global.openDatabase()
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let report: ImportReport
        do {
            var importer = ContactImporter(database: db, parser: parser)
            let folder = global.paths.dataDirectory.path
            importer.onWaitingForOtherImport = {
                Output.note("waiting for another import into \(folder) to finish (imports run one at a time so nobody is added twice)")
            }
            report = try importer.importContacts(from: url, format: fmt)
        } catch let e as ImportError {
            throw Output.failure(e.description)
        } catch {
            throw Output.failure("import of \(Output.safe(path)) stopped: \(StorageFailure.message(for: error) ?? String(describing: error))")
        }
        if json {
            try Output.printJSON(report)
            return
        }
        print("\(report.imported) imported, \(report.updated) updated, \(report.skipped) skipped")
        if !report.errors.isEmpty {
            FileHandle.standardError.write(Data("\(report.errors.count) problem(s):\n".utf8))
            for e in report.errors {
                FileHandle.standardError.write(Data("  \(Output.safe(e.file)):\(e.line): \(Output.safe(e.message))\n".utf8))
            }
        }
    }
}
