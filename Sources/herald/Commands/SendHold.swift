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
    /// What became of the held bulks: in words, and the exit status when nothing left (ctrl-c: 130; taken back by
    /// `herald bulks cancel` from elsewhere: 1, as a send that sent nothing).
    struct Outcome {
        var summary: String
        var exitCode: Int32?
    }

    /// Waits out the undo window when this process must; answers what became of the held bulks (nil: not waited).
    /// `quiet` (JSON on stdout) keeps the countdown line off stderr; the notes still go there.
    static func waitOut(_ result: InviteResult, scheduled: Bool, ws: Workspace, quiet: Bool) async -> Outcome? {
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
        var lastLook = Date()
        while !holdInterrupted.load(ordering: .relaxed) {
            let left = sendAt.timeIntervalSinceNow
            if left <= 0 { break }
            // `herald bulks cancel` in another terminal writes the ledger of this data folder: once it has taken every
            // bulk back there is nothing left to wait for.
            if Date().timeIntervalSince(lastLook) >= 1 {
                lastLook = Date()
                if await takenBack(result.bulkIds, ws: ws) { break }
            }
            if tty {
                let line = "leaves in \(Int(left.rounded(.up))) s — ctrl-c takes it back"
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            }
            try? await Task.sleep(nanoseconds: UInt64(min(left, 0.1) * 1_000_000_000))
        }
        if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let interrupted = holdInterrupted.load(ordering: .relaxed)
        var said: [String] = []
        var cancelledElsewhere = 0
        for bulkId in result.bulkIds {
            if interrupted {
                do { said.append(try await ws.invites.cancel(bulkId: bulkId).summary) } catch {
                    said.append("bulk \(Output.safe(bulkId)): \(userMessage(for: error))")
                }
                continue
            }
            // The read that lets it leave (the engine hands over what is due when a bulk is read), and that says
            // whether someone took it back meanwhile.
            do {
                let infos = try await ws.platform.deliveryInfos(bulkId: bulkId)
                try await ws.tracker.store(infos, bulkId: bulkId)
                let cancelled = infos.filter { $0.deliveryStatus == .cancelled }.count
                if cancelled > 0, cancelled == infos.count {
                    cancelledElsewhere += 1
                    said.append("bulk \(Output.safe(bulkId)) was taken back meanwhile (`herald bulks cancel`): "
                                + "\(counted(cancelled, "invitation")), nothing was sent")
                } else if cancelled > 0 {
                    said.append("bulk \(Output.safe(bulkId)): \(counted(cancelled, "invitation")) taken back meanwhile "
                                + "(`herald bulks cancel`), \(counted(infos.count - cancelled, "invitation")) left")
                }
            } catch {
                said.append("bulk \(Output.safe(bulkId)) was due at \(when) but could not be handed over yet (\(userMessage(for: error))); the next run of Herald does it")
            }
        }
        if interrupted { return Outcome(summary: said.joined(separator: "; "), exitCode: 130) }
        let leftAt = "left at \(SendTime.describe(Date(), in: .current))"
        if cancelledElsewhere == result.bulkIds.count { return Outcome(summary: said.joined(separator: "; "), exitCode: 1) }
        return Outcome(summary: said.isEmpty ? leftAt : ([leftAt] + said).joined(separator: "; "), exitCode: nil)
    }

    /// True when the ledger shows every recipient of every bulk cancelled (taken back by another Herald process).
    private static func takenBack(_ bulkIds: [String], ws: Workspace) async -> Bool {
        for bulkId in bulkIds {
            // An unreadable ledger is no reason to stop waiting: the read at the end of the window says what happened.
            guard let rows = try? await ws.book.recipients(ofBulk: bulkId), !rows.isEmpty,
                  rows.allSatisfy({ $0.invitation.status == .cancelled }) else { return false }
        }
        return true
    }
}
