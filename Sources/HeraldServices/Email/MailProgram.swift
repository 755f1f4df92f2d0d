import Foundation
import HeraldCore

/// A sendmail-compatible program on this machine (`sendmail -t -i` by default; `msmtp -t` and the like work the same
/// way), which the embedded and Infobip platforms hand email invitations to.
public struct MailProgram: Sendable {
    /// `sendmail -t -i`: recipients are read from the message's headers, and a line that is only "." does not end
    /// the message (without `-i` sendmail stops reading there and queues what it has, so the link could be lost while
    /// the exit status says all is well). The body encoder never writes such a line either, for a configured
    /// command without `-i`.
    public static let defaultCommand = ExternalCommand(program: "sendmail", arguments: ["-t", "-i"])

    public let command: ExternalCommand
    private let environment: [String: String]

    public init(command: ExternalCommand = MailProgram.defaultCommand,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.command = command
        self.environment = environment
    }

    /// Whether the mail program can be run, and why not.
    public func availability() -> ProgramAvailability {
        command.availability(environment: environment)
    }

    /// Pipes a message to the mail program. Throws `EmailError` when the program is missing or exits with a non-zero
    /// status (with its stderr).
    public func send(_ message: EmailMessage) async throws {
        let input = Data(message.rendered(lineEnding: "\n").utf8)
        let outcome: ProcessOutcome
        do {
            outcome = try await ProcessRunner.run(command, input: input, environment: environment)
        } catch let error as ExternalCommandError {
            switch error {
            case .unavailable(_, let reason), .couldNotStart(_, let reason):
                throw EmailError.mailerUnavailable(reason: reason)
            default:
                throw error
            }
        }
        guard outcome.succeeded else {
            let status = outcome.killedBySignal ? 128 + outcome.status : outcome.status
            throw EmailError.mailerFailed(command: command.description, status: status, stderr: outcome.stderr)
        }
    }
}

extension EmailError: UserFacingError {}
