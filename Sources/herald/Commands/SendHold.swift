import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import Synchronization

/// Set by ctrl-c while `herald send` waits out the undo window.
private let holdInterrupted = Atomic<Bool>(false)

/// What `herald send` does while the platform holds its bulk. The undo window of the embedded engine (in this
/// process) is waited out here, with a countdown on a terminal: ctrl-c takes the send back, and at its end
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
        // A plain handler, installed before the note below: a ctrl-c as soon as the note shows is never lost.
        holdInterrupted.store(false, ordering: .relaxed)
        signal(SIGINT) { _ in holdInterrupted.store(true, ordering: .relaxed) }
        defer { signal(SIGINT, SIG_DFL) }
        if quiet || isatty(STDERR_FILENO) != 1 {
            Output.note("held until \(when) (ctrl-c takes it back)")
        }
        let tty = !quiet && isatty(STDERR_FILENO) == 1
        while !holdInterrupted.load(ordering: .relaxed) {
            let left = sendAt.timeIntervalSinceNow
            if left <= 0 { break }
            if tty {
                let line = "leaves in \(Int(left.rounded(.up))) s — ctrl-c takes it back"
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            }
            try? await Task.sleep(nanoseconds: UInt64(min(left, 0.1) * 1_000_000_000))
        }
        if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let interrupted = holdInterrupted.load(ordering: .relaxed)
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
