import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald deliveries export`: every recipient a query matches, one row each, to a file or standard output.
struct DeliveriesExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export the recipients a query matches as CSV, TSV or JSON.",
        discussion: """
            One row per recipient, oldest first: bulk, time (UTC), sent_by, number, name, country, state, status, reason, \
            price, currency, attempts, clicks, text (as sent). CSV is RFC 4180 with a header row; TSV has a header row; \
            JSON is one array of objects. Safe to open in a spreadsheet (a cell starting with = + - @ gets a leading '). \
            The file is written whole or not at all, readable by you only.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "What to export (see `herald deliveries --help`); all recipients when left out.", valueName: "query"))
    var query: String?

    @Option(help: ArgumentHelp("csv, tsv or json (default: from the file's extension, else csv).", valueName: "format"))
    var format: String?

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("The file to write; - for standard output.",
                                                                                  valueName: "file"),
            completion: .file())
    var output: String

    func run() async throws {
        let chosen = try exportFormat()
        let search = DeliverySearch(database: try global.openDatabase())
        let query = try DeliveriesCommand.query(self.query, search)
        DeliveriesCommand.sayNotes(query)
        do {
            if output == "-" {
                _ = try await search.export(query, format: chosen, to: FileHandle.standardOutput)
            } else {
                let summary = try await search.export(query, format: chosen, to: output)
                Output.note("exported \(counted(summary.rows, "recipient")) to \(summary.path ?? output)")
            }
        } catch let error as DeliveryExportError {
            throw Output.failure(error.userMessage)
        }
    }

    private func exportFormat() throws -> DeliveryExportFormat {
        if let format {
            guard let known = DeliveryExportFormat(rawValue: format.lowercased()) else {
                throw Output.failure("--format \(format) is not a format: use csv, tsv or json")
            }
            return known
        }
        let ext = (output as NSString).pathExtension.lowercased()
        return DeliveryExportFormat(rawValue: ext) ?? .csv
    }
}
