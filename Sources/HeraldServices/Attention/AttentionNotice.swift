import Foundation
import HeraldCore

/// What a notice is about. Each kind is given at most once per subject (a bulk, an inbox message), by every process
/// on the data folder together (`NoticeClaims`). A new kind (a reply to an invitation, say) is a new case here, a
/// rule in `AttentionRules` and the event that feeds it in `AttentionWatcher`.
public enum NoticeKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A bulk has no recipient left whose status can change.
    case bulkSettled = "bulk-settled"
    /// A bulk's failures reached `[notify] failures`.
    case bulkFailures = "bulk-failures"
    /// A message arrived in a followed inbox.
    case inboxMessage = "inbox-message"
    /// Somebody replied by SMS.
    case reply = "reply"
}

/// One notice for the person at the keyboard: shown in the status bar, rung or popped up by the terminal or the
/// desktop, printed by `herald watch --notify`. Title and body are terminal-safe (no control characters).
public struct AttentionNotice: Sendable, Hashable, Codable {
    public var kind: NoticeKind
    /// What it is about: the bulk id, the inbox user, or the number that replied with the reply's id.
    public var subject: String
    public var title: String
    public var body: String
    public var at: Date

    public init(kind: NoticeKind, subject: String, title: String, body: String, at: Date) {
        self.kind = kind
        self.subject = TerminalSafeText.sanitize(subject)
        self.title = TerminalSafeText.sanitize(title)
        self.body = TerminalSafeText.sanitize(body)
        self.at = at
    }

    /// One line for the status bar and `herald watch`: "bulk 3f9a2c1b settled: 200 recipients, …".
    public var line: String { body.isEmpty ? title : "\(title): \(body)" }
}

/// When a bulk's failures are worth a notice: a share of its recipients ("10%") or a number of them ("25").
public enum FailureThreshold: Sendable, Hashable, CustomStringConvertible {
    /// Percent of the bulk's recipients, above 0 and at most 100.
    case percent(Double)
    /// This many failed recipients, 1 or more.
    case count(Int)

    /// The default: a tenth of the bulk.
    public static let `default` = FailureThreshold.percent(10)

    /// Reads "10%", "2.5%" or "25"; nil for anything else (0, negative, over 100%, words).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            guard let value = Double(trimmed.dropLast().trimmingCharacters(in: .whitespaces)), value.isFinite,
                  value > 0, value <= 100 else { return nil }
            self = .percent(value)
        } else {
            guard let value = Int(trimmed), value >= 1 else { return nil }
            self = .count(value)
        }
    }

    /// Whether `failed` of `recipients` reach the threshold (never for no failures).
    public func isReached(failed: Int, recipients: Int) -> Bool {
        guard failed > 0, recipients > 0 else { return false }
        switch self {
        case .percent(let share): return Double(failed) * 100 >= share * Double(recipients)
        case .count(let count): return failed >= count
        }
    }

    public var description: String {
        switch self {
        case .percent(let share): return share == share.rounded() ? "\(Int(share))%" : "\(share)%"
        case .count(let count): return counted(count, "failure")
        }
    }
}
