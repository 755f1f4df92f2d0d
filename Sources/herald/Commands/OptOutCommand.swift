import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald optout`: the numbers that said stop. Every send leaves them out ("opted out on DATE"); on a Herald server
/// the list is the team's.
struct OptOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optout", abstract: "Numbers that said stop: no invitation goes to them.",
        subcommands: [OptOutList.self, OptOutAdd.self, OptOutRemove.self], defaultSubcommand: OptOutList.self)
}

/// `herald optout list`.
struct OptOutList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the opted-out numbers, newest first.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let list: [OptOut]
        do { list = try await ws.invites.optOuts() } catch { throw Output.failure(for: error) }
        if json { return try Output.printJSON(list) }
        guard !list.isEmpty else { return print("Nobody opted out.") }
        var table = OutputTable(headers: ["NUMBER", "SINCE", "HOW"], maxWidths: [20, 24, 40])
        for entry in list {
            table.add([entry.number, WireTime.date(entry.since).map { SendTime.describe($0, in: .current) } ?? entry.since, entry.source])
        }
        print(table.render(), terminator: "")
    }
}

/// `herald optout add NUMBER…`.
struct OptOutAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Opt numbers out: no invitation goes to them again.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Phone numbers (E.164, or national with the configured region).", valueName: "number"))
    var numbers: [String]

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            for entry in try await ws.invites.optOut(numbers: numbers) { print("\(entry.number): \(entry.reason)") }
        } catch {
            throw Output.failure(for: error)
        }
    }
}

/// `herald optout remove NUMBER…`.
struct OptOutRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Take numbers off the list: they may be invited again.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Phone numbers.", valueName: "number"))
    var numbers: [String]

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do { try await ws.invites.optIn(numbers: numbers) } catch { throw Output.failure(for: error) }
        print("taken off the list: \(numbers.map(Output.safe).joined(separator: ", "))")
    }
}
