import Foundation

/// A plain-text email, checked field by field, that renders as an RFC 5322 message.
public struct EmailMessage: Sendable, Hashable {
    public let from: EmailAddress
    /// Where replies go when not to `from`.
    public let replyTo: EmailAddress?
    public let to: [EmailAddress]
    public let subject: String
    public let body: String
    public let date: Date
    /// Without angle brackets ("3F2A…@example.com").
    public let messageId: String
    public let timeZone: TimeZone

    /// Builds a message; throws when a header field holds a line break or control character.
    public init(from: EmailAddress, to: [EmailAddress], subject: String, body: String, date: Date,
                messageId: String? = nil, timeZone: TimeZone = .current, replyTo: EmailAddress? = nil) throws {
        guard !to.isEmpty else { throw EmailError.noRecipients }
        try EmailError.refuseLineBreaks(in: subject, field: "Subject")
        if let messageId {
            try EmailError.refuseLineBreaks(in: messageId, field: "Message-ID")
            guard !messageId.contains(where: { $0 == "<" || $0 == ">" || $0 == " " }), messageId.contains("@") else {
                throw EmailError.invalidAddress(field: "Message-ID", address: messageId, problem: "it needs the form id@domain without brackets or spaces")
            }
        }
        self.from = from
        self.replyTo = replyTo
        self.to = to
        self.subject = subject
        self.body = body
        self.date = date
        self.messageId = messageId ?? "\(UUID().uuidString.lowercased())@\(from.domain)"
        self.timeZone = timeZone
    }

    /// The header lines in order, unfolded values already encoded for the wire.
    public var headers: [(name: String, value: String)] {
        [("From", MIMEEncoding.fold(from.headerTokens, used: "From: ".count))]
            + (replyTo.map { [("Reply-To", MIMEEncoding.fold($0.headerTokens, used: "Reply-To: ".count))] } ?? []) + [
            ("To", MIMEEncoding.fold(Self.recipientTokens(to), used: "To: ".count)),
            ("Subject", Self.encodeSubject(subject)),
            ("Date", Self.rfc5322Date(date, timeZone: timeZone)),
            ("Message-ID", "<\(messageId)>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Transfer-Encoding", "quoted-printable"),
        ]
    }

    /// The whole message. RFC 5322 says CRLF; pipe to sendmail with "\n", which it expects.
    public func rendered(lineEnding: String = "\r\n") -> String {
        let head = headers.map { name, value in
            // Values that were folded with "\r\n " take the requested line ending too.
            "\(name): " + value.replacingOccurrences(of: "\r\n", with: lineEnding)
        }
        return head.joined(separator: lineEnding) + lineEnding + lineEnding
            + MIMEEncoding.quotedPrintable(body, lineEnding: lineEnding) + lineEnding
    }

    /// "Thu, 01 Jan 2026 00:00:00 +0000".
    public static func rfc5322Date(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    /// Plain ASCII subjects stay as they are (folded at spaces when long);
    /// others become encoded-words, folded between words.
    static func encodeSubject(_ subject: String) -> String {
        if MIMEEncoding.isPlainHeaderText(subject) {
            return fold(subject, firstLineUsed: "Subject: ".count)
        }
        return MIMEEncoding.fold(MIMEEncoding.encodedWords(subject), used: "Subject: ".count)
    }

    /// Every recipient's tokens, a comma after each but the last.
    static func recipientTokens(_ recipients: [EmailAddress]) -> [String] {
        var tokens: [String] = []
        for (i, recipient) in recipients.enumerated() {
            var mine = recipient.headerTokens
            if i < recipients.count - 1, let last = mine.popLast() { mine.append(last + ",") }
            tokens += mine
        }
        return tokens
    }

    /// Folds at spaces so lines stay within 78 characters where a space allows it.
    private static func fold(_ value: String, firstLineUsed: Int) -> String {
        var lines: [String] = []
        var current = ""
        var used = firstLineUsed
        for (i, word) in value.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            let piece = i == 0 ? String(word) : " " + word
            if used + current.count + piece.count > 78, !current.isEmpty {
                lines.append(current)
                current = piece.hasPrefix(" ") ? piece : " " + piece
                used = 0
            } else {
                current += piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }
}
