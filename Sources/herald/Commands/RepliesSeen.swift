import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald replies seen N… | --all`: marks the replies of numbers seen.
struct RepliesSeen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "seen", abstract: "Mark the replies of numbers seen (or of every conversation).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Numbers whose replies to mark seen.", valueName: "number"))
    var numbers: [String] = []

    @Flag(help: "Every conversation with unread replies.")
    var all = false

    func validate() throws {
        if all && !numbers.isEmpty { throw ValidationError("give numbers or --all, not both") }
        if !all && numbers.isEmpty { throw ValidationError("give at least one number, or --all") }
    }

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            if all {
                // Page by page: each mark takes its conversation off the unread list.
                var seen = Set<String>()
                var total = 0
                while true {
                    let page = try await ws.conversations.list(unreadOnly: true, limit: 1000)
                    let fresh = page.rows.filter { !seen.contains($0.number) }
                    if fresh.isEmpty { break }
                    for row in fresh {
                        seen.insert(row.number)
                        total += try await ws.conversations.markSeen(number: row.number)
                    }
                }
                print("\(counted(total, "reply", "replies")) marked seen in \(counted(seen.count, "conversation"))")
                return
            }
            var marked = 0
            for number in numbers {
                let count = try await ws.conversations.markSeen(number: number)
                marked += count
                if count == 0 { Output.note("\(Output.safe(number)): nothing unread") }
            }
            print("\(counted(marked, "reply", "replies")) marked seen")
        } catch {
            throw Output.failure(for: error)
        }
    }
}
