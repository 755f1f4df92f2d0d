import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// What `herald send` does while the platform holds its bulk. The undo window of an engine in this process
/// (embedded, Infobip) is waited out here, with a countdown on a terminal: ctrl-c takes the send back, and at its end
/// the bulk is read once, which hands it to the carrier. A Herald server, and Infobip, hold and send by themselves: the
/// command only says until when and how to take it back. A scheduled send (`--at`) is never waited for.
enum SendHold {
    /// Waits out the undo window when this process must; answers what became of the held bulks (nil: not waited).
    /// `quiet` (JSON on stdout) keeps the countdown line off stderr; the notes still go there.
    static func waitOut(_ result: InviteResult, scheduled: Bool, ws: Workspace, quiet: Bool) async -> (summary: String, takenBack: Bool)? {
        guard let sendAt = result.sendAt, !result.bulkIds.isEmpty else { return nil }
        let ids = result.bulkIds.map(Output.safe).joined(separator: " ")
        let when = SendTime.describe(sendAt, in: .current)
        guard ws.connection.kind.holdsSendsInProcess, !scheduled else {
            let leaves = ws.connection.kind.holdsSendsInProcess
                ? "it leaves when Herald runs on this data folder at or after then (the TUI, `herald watch` or `herald status`)"
                : "\(ws.connection.kind.holder) sends it then"
            Output.note("held until \(when): \(leaves); take it back with `herald bulks cancel \(ids)`")
            return nil
        }
        fflush(nil)   // the table before the countdown (every output stream)
        let interrupt = SignalTrap(SIGINT)
        let wait = Task { () -> Bool in
            let tty = !quiet && isatty(STDERR_FILENO) == 1
            while !Task.isCancelled {
                let left = sendAt.timeIntervalSinceNow
                if left <= 0 { break }
                if tty {
                    let line = "leaves in \(Int(left.rounded(.up))) s — ctrl-c takes it back"
                    FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                }
                try? await Task.sleep(nanoseconds: UInt64(min(left, 0.25) * 1_000_000_000))
            }
            if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            return Task.isCancelled
        }
        interrupt.onSignal { wait.cancel() }
        if quiet || isatty(STDERR_FILENO) != 1 {
            Output.note("held until \(when) (ctrl-c takes it back)")
        }
        let interrupted = await wait.value
        interrupt.cancel()
        var said: [String] = []
        for bulkId in result.bulkIds {
            if interrupted {
                do { said.append(try await ws.invites.cancel(bulkId: bulkId).summary) } catch {
                    said.append("bulk \(Output.safe(bulkId)): \(userMessage(for: error))")
                }
                continue
            }
            // The read that lets it leave (the engine hands over what is due when a bulk is read).
            do {
                try await ws.tracker.store(try await ws.platform.deliveryInfos(bulkId: bulkId), bulkId: bulkId)
            } catch {
                said.append("bulk \(Output.safe(bulkId)) was due at \(when) but could not be handed over yet (\(userMessage(for: error))); the next run of Herald does it")
            }
        }
        if interrupted { return (said.joined(separator: "; "), true) }
        return (said.isEmpty ? "left at \(SendTime.describe(Date(), in: .current))" : said.joined(separator: "; "), false)
    }
}
