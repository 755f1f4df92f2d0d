import ArgumentParser
import Foundation
import HeraldStore

/// `herald contacts export`.
struct ContactsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write every contact as vCard 4.0 or CSV.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "vcard or csv.")
    var format: String

    @Option(name: .shortAndLong, help: "File to write, byte for byte (default: standard output, without control characters).")
    var output: String?

    func run() async throws {
        guard let fmt = ExportFormat(rawValue: format.lowercased()) else {
            throw Output.failure("unknown format \"\(format)\": use vcard or csv")
        }
        let exporter = ContactExporter(database: try global.openDatabase())
        if let output {
            let url = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
            do {
                let n = try exporter.export(fmt, to: url)
                FileHandle.standardError.write(Data("\(n) contacts written to \(Output.safe(output))\n".utf8))
            } catch {
                throw Output.failure("cannot write \(output): \(error.localizedDescription)")
            }
        } else {
            // Standard output is often a terminal: a card's escape sequences are dropped there; `-o FILE` keeps every byte.
            try exporter.export(fmt) { Output.write($0) }
        }
    }
}
