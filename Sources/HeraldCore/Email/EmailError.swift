/// Why an email could not be built or sent.
public enum EmailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A header field holds CR or LF: refused so no header can be injected.
    case lineBreakInHeader(field: String)
    /// A header field holds another control character (NUL, ESC…).
    case controlCharacterInHeader(field: String)
    case invalidAddress(field: String, address: String, problem: String)
    case noRecipients
    /// The mail program cannot be run.
    case mailerUnavailable(reason: String)
    /// The mail program ran and refused the message.
    case mailerFailed(command: String, status: Int32, stderr: String)

    public var userMessage: String {
        switch self {
        case .lineBreakInHeader(let field):
            return "the \(field) field contains a line break; remove it (line breaks are not allowed in email headers)"
        case .controlCharacterInHeader(let field):
            return "the \(field) field contains a control character; remove it"
        case .invalidAddress(let field, let address, let problem):
            return "\(field): \"\(address)\" is not a usable email address: \(problem)"
        case .noRecipients:
            return "the email has no recipient: pick a person with an email address"
        case .mailerUnavailable(let reason):
            return "cannot send email: \(reason) (set email.command in config.toml, for example \"msmtp -t\")"
        case .mailerFailed(let command, let status, let stderr):
            let detail = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(command) refused the email (exit status \(status))" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }

    public var description: String { userMessage }

    static func refuseLineBreaks(in value: String, field: String) throws {
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            throw EmailError.lineBreakInHeader(field: field)
        }
        if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
            throw EmailError.controlCharacterInHeader(field: field)
        }
    }
}
