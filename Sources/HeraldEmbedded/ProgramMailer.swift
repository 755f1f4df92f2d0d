import Foundation
import HeraldCore
import HeraldEngine
import HeraldServices

/// The engine's mailer on this machine: each email invitation piped to the mail program (`sendmail -t -i`).
public struct ProgramMailer: Mailer {
    public let program: MailProgram

    public init(program: MailProgram) { self.program = program }

    /// sendmail queues a message in well under a second; a minute covers a slow relay (msmtp talks SMTP at once).
    public var handOverLease: TimeInterval { 60 }

    public func send(_ message: EmailMessage) async -> MailHandOver {
        do {
            try await program.send(message)
            return .accepted
        } catch EmailError.mailerFailed(let command, let status, let stderr) where status > 128 {
            // Killed mid-way: it may have queued the message before it died.
            let detail = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return .unknown(reason: "\(command) was killed (exit status \(status))" + (detail.isEmpty ? "" : ": \(detail)"))
        } catch {
            return .refused(reason: userMessage(for: error), permanent: false)
        }
    }
}
