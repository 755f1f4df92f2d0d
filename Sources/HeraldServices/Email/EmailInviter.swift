import Foundation
import HeraldCore

/// Sends invitation emails by piping them to a sendmail-compatible program
/// (`sendmail -t` by default; `msmtp -t` and the like work the same way).
public struct EmailInviter: Sendable {
    /// `sendmail -t`: recipients are read from the message's headers.
    public static let defaultCommand = ExternalCommand(program: "sendmail", arguments: ["-t"])

    public let command: ExternalCommand
    public let sender: EmailAddress
    private let clock: any HeraldClock
    private let environment: [String: String]
    private let timeZone: TimeZone

    public init(sender: EmailAddress, command: ExternalCommand = EmailInviter.defaultCommand,
                clock: any HeraldClock = SystemClock(),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                timeZone: TimeZone = .current) {
        self.sender = sender
        self.command = command
        self.clock = clock
        self.environment = environment
        self.timeZone = timeZone
    }

    /// Whether the mail program can be run, and why not.
    public func availability() -> ProgramAvailability {
        command.availability(environment: environment)
    }

    /// The message that `send` would pipe, dated now.
    public func makeMessage(to recipient: EmailAddress, subject: String, body: String) throws -> EmailMessage {
        try EmailMessage(from: sender, to: [recipient], subject: subject, body: body, date: clock.now(), timeZone: timeZone)
    }

    /// Builds the message and hands it to the mail program. Returns what was sent; throws
    /// `EmailError` when the program is missing or exits with a non-zero status (with its stderr).
    @discardableResult
    public func send(to recipient: EmailAddress, subject: String, body: String) async throws -> EmailMessage {
        let message = try makeMessage(to: recipient, subject: subject, body: body)
        try await send(message)
        return message
    }

    /// Pipes an already built message to the mail program.
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
