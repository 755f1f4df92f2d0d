import ArgumentParser
import Foundation
import HeraldStore

/// `herald contacts generate`: a large, realistic, deterministic address book for trying things out.
struct ContactsGenerate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Write a generated address book (many scripts and countries) to a file.")

    @Option(help: "How many people.")
    var count: Int = 1000

    @Option(help: "Seed: the same seed gives the same book.")
    var seed: UInt64 = 1

    @Option(help: "vcard or csv.")
    var format: String = "vcard"

    @Option(name: .shortAndLong, help: "File to write.")
    var output: String

    func run() async throws {
        guard let fmt = ExportFormat(rawValue: format.lowercased()) else {
            throw Output.failure("unknown format \"\(format)\": use vcard or csv")
        }
        guard count >= 0 else { throw Output.failure("--count must be 0 or more") }
        let url = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
        do {
            try AddressBookGenerator(seed: seed).write(count: count, format: fmt, to: url)
        } catch {
            throw Output.failure("cannot write \(output): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(Data("\(count) people written to \(Output.safe(output))\n".utf8))
    }
}
