import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// What `herald send` and `herald share email` print after a send, and how they exit: the bulk and its recipients
/// (or JSON), the undo window waited out on the embedded platform, and a non-zero exit when nothing was accepted.
enum SendReport {
    static func finish(_ result: InviteResult, ws: Workspace, json: Bool, scheduled: Bool) async throws {
        var reconciled = ws.reconciledOnOpen
        reconciled.add(result.reconciled)
        if !result.reconciled.isEmpty { Output.note(result.reconciled.summary) }
        if json {
            try Output.printJSON(SendJSON(result, reconciled: reconciled))
        } else {
            await printHuman(result, ws: ws)
        }
        if let hold = await SendHold.waitOut(result, scheduled: scheduled, ws: ws, quiet: json) {
            Output.note(hold.summary)
            if let code = hold.exitCode { throw ExitCode(code) }
        }
        let refused = result.recipients.filter { $0.status == .rejected || $0.status == .sendFailed }
        if !result.recipients.isEmpty, refused.count == result.recipients.count {
            let reasons = Set(refused.compactMap(\.reason)).sorted()
            throw Output.failure("no recipient was accepted: " + (reasons.isEmpty ? "the platform gave no reason" : reasons.joined(separator: "; ")))
        }
        let waiting = result.recipients.filter { $0.status == .queued }.count
        if waiting > 0 {
            throw Output.failure("\(counted(waiting, "recipient")) \(waiting == 1 ? "stays" : "stay") queued: the platform did not answer; \(waiting == 1 ? "it is" : "they are") completed by the next run of Herald (nothing is sent twice)")
        }
        if result.recipients.isEmpty {
            if reconciled.reconciled > 0 {
                Output.note("nothing new to send: the interrupted invitations completed above covered the rest")
                return
            }
            throw Output.failure("nothing was sent: every recipient was skipped (see above)")
        }
    }

    static func printHuman(_ result: InviteResult, ws: Workspace) async {
        if let bulk = result.bulkId {
            let more = result.bulkIds.count > 1 ? " (+\(result.bulkIds.count - 1) more: \(result.bulkIds.dropFirst().joined(separator: ", ")))" : ""
            print("Bulk \(Output.safe(bulk))\(more): \(counted(result.recipients.count, "recipient"))")
        }
        if !result.recipients.isEmpty {
            var table = OutputTable(headers: ["ADDRESS", "NAME", "STATUS", "MESSAGE ID"], maxWidths: [32, 28, 14, 40])
            let names = await ContactNameColumn(result.recipients.map(\.personId), book: ws.book)
            for r in result.recipients {
                table.add([r.address, names.name(of: r.personId), r.status.label(for: r.address) + (r.reason == nil ? "" : " *"), r.messageId ?? ""])
            }
            print(table.render(), terminator: "")
            // Each reason once and whole (a column would cut it).
            let reasons = Dictionary(grouping: result.recipients.compactMap(\.reason), by: { $0 })
            for (reason, all) in reasons.sorted(by: { $0.key < $1.key }) {
                print("* \(all.count) recipient\(all.count == 1 ? "" : "s"): \(Output.safe(reason))")
            }
        }
        if !result.skipped.isEmpty {
            print("Skipped \(result.skipped.count):")
            var table = OutputTable(headers: ["ADDRESS", "REASON"], maxWidths: [24, 90])
            for s in result.skipped { table.add([s.address, s.reason]) }
            print(table.render(), terminator: "")
        }
        if let sendAt = result.sendAt { print("Held until \(SendTime.describe(sendAt, in: .current))") }
        if let left = result.leftToday { print("\(counted(left, "invitation")) left today under this sender ID ([send] max_per_day)") }
        if let bulk = result.bulkId { print("Follow it with: herald status \(Output.safe(bulk)) --wait") }
    }
}
