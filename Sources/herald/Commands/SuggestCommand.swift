import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald suggest`: whom to invite next, with the reasons.
struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest", abstract: "Suggest people to invite next (those shown move behind the others).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "How many.") var count: Int = 5
    @Flag(help: "Print JSON.") var json = false

    struct Item: Encodable {
        var personId: Int64?
        var name: String
        var number: String
        var score: Int
        var reasons: [String]
    }

    func run() async throws {
        guard count > 0 else { throw Output.failure("--count must be 1 or more") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let found: [Suggestion]
        do {
            found = try await ws.suggestions.suggestions(count: count)
            try await ws.suggestions.markShown(found)
        } catch {
            throw Output.failure(for: error)
        }
        if json {
            try Output.printJSON(found.map { Item(personId: $0.person.id, name: $0.person.displayName, number: $0.number, score: $0.score, reasons: $0.reasons) })
            return
        }
        if found.isEmpty {
            print("No one to suggest: import contacts with `herald contacts import FILE`, or everyone is already invited.")
            return
        }
        var table = OutputTable(headers: ["ID", "NAME", "NUMBER", "SCORE", "WHY"], maxWidths: [8, 28, 18, 5, 60])
        for s in found {
            table.add([String(s.person.id ?? 0), s.person.displayName, s.number, String(s.score), s.reasons.joined(separator: ", ")])
        }
        print(table.render(), terminator: "")
    }
}
