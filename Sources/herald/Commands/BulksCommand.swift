import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald bulks`: the bulks the platform still holds (the undo window, scheduled sends), taken back or moved.
struct BulksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bulks", abstract: "List held invitation bulks, take them back or move them.",
        subcommands: [BulksList.self, BulksCancel.self, BulksMove.self], defaultSubcommand: BulksList.self)
}

/// `herald bulks list`: bulks still held, soonest first.
struct BulksList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the bulks still held, soonest first.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct Row: Encodable {
        var bulkId: String
        var sendAt: String
        var held: Int
        var message: String?
    }

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let held = try await ws.book.deliveriesSnapshot().bulks
            .filter { ($0.counts[.scheduled] ?? 0) > 0 && $0.record.sendAt != nil }
            .sorted { ($0.record.sendAt ?? .distantFuture) < ($1.record.sendAt ?? .distantFuture) }
        let rows = held.map {
            Row(bulkId: $0.record.bulkId, sendAt: WireTime.text($0.record.sendAt ?? Date()), held: $0.counts[.scheduled] ?? 0,
                message: $0.record.messageText ?? $0.record.messageKey)
        }
        if json { return try Output.printJSON(rows) }
        guard !rows.isEmpty else { return print("No bulk is held: every send has left.") }
        var table = OutputTable(headers: ["BULK", "LEAVES", "HELD", "MESSAGE"], maxWidths: [40, 24, 8, 60])
        for (row, bulk) in zip(rows, held) {
            table.add([row.bulkId, SendTime.describe(bulk.record.sendAt ?? Date(), in: .current), String(row.held), row.message ?? ""])
        }
        print(table.render(), terminator: "")
    }
}

/// `herald bulks cancel BULK…`: takes back what the platform still holds.
struct BulksCancel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Take back held bulks: what has not left is never sent.",
        discussion: "A bulk held as one leaves whole or not at all: the answer says which. Its recipients end cancelled and may be invited again.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Bulk ids (`herald bulks list`).", valueName: "bulk"), completion: LiveCompletions.bulkIDs)
    var bulks: [String]

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        var tooLate = false
        for bulk in bulks {
            do {
                let answer = try await ws.invites.cancel(bulkId: bulk)
                print("\(Output.safe(bulk)): \(answer.summary)")
                if answer.cancelled == 0 { tooLate = true }
            } catch {
                throw Output.failure(for: error)
            }
        }
        if tooLate { throw ExitCode(1) }
    }
}

/// `herald bulks move BULK --at TIME`: moves what the platform still holds to another time.
struct BulksMove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a held bulk to another time.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The bulk id (`herald bulks list`).", valueName: "bulk"), completion: LiveCompletions.bulkIDs)
    var bulk: String

    @Option(help: ArgumentHelp("The new time: \"2026-12-01 09:00\", \"09:00\" or \"+2h\".", valueName: "time"))
    var at: String

    @Option(help: ArgumentHelp("The time zone --at is read in; default: this machine's.", valueName: "zone"))
    var tz: String?

    func run() async throws {
        let zone: TimeZone
        let sendAt: Date
        do throws(SendTimeError) {
            zone = try tz.map { name throws(SendTimeError) in try SendTime.timeZone(named: name) } ?? .current
            sendAt = try SendTime.parse(at, now: Date(), timeZone: zone)
        } catch {
            throw Output.failure("--at: \(Output.safe(error.description)); nothing was moved")
        }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let answer = try await ws.invites.reschedule(bulkId: bulk, to: sendAt)
            print("\(Output.safe(bulk)): \(counted(answer.held, "invitation")) now \(answer.held == 1 ? "leaves" : "leave") at \(SendTime.describe(sendAt, in: zone))")
        } catch {
            throw Output.failure(for: error)
        }
    }
}
