import Foundation
import HeraldCore

/// What a mail server or mail program said of one message handed to it.
public enum MailHandOver: Sendable, Hashable {
    /// Taken: it is the mail system's now.
    case accepted
    /// Refused before it was taken (the reason in the mailer's words); `permanent` when sending it again would fail again
    /// (an SMTP 5xx, an invalid address).
    case refused(reason: String, permanent: Bool)
    /// Not known whether it was taken (the connection dropped after the message was written): it is never handed over
    /// again on its own.
    case unknown(reason: String)
}

/// Where the engine hands email invitations: a mail program on this machine (`sendmail -t`) or an SMTP server.
public protocol Mailer: Sendable {
    /// Hands one message over and says what became of it; never throws (every failure is a `MailHandOver`).
    func send(_ message: EmailMessage) async -> MailHandOver
    /// How long a hand-over may take before a process that claimed the message is presumed dead.
    var handOverLease: TimeInterval { get }
}
