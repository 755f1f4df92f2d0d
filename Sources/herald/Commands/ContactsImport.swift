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
            report = try ContactImporter(database: db, parser: parser).importContacts(from: url, format: fmt)
        } catch let e as ImportError {
            throw Output.failure(e.description)
        } catch {
            throw Output.failure("import of \(path) stopped: \(error)")
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
