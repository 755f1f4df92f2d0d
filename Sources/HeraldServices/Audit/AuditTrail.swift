import Foundation
import HeraldAPI
import HeraldCore

/// Why the audit trail could not be read.
public enum AuditTrailError: Error, Sendable, Hashable, UserFacingError {
    /// Only an admin key reads the history of keys.
    case forbidden(String)
    case platform(String)

    public var userMessage: String {
        switch self {
        case .forbidden(let why): return why
        case .platform(let why): return why
        }
    }
}

/// The platform's audit trail: who sent, resent, moved, took back or cancelled a bulk, changed an opt-out or a key;
/// when and from where. A Herald server's trail is the team's, the same from every terminal; the embedded platform's
/// is this terminal's own.
public struct AuditTrail: Sendable {
    public let platform: PlatformClient

    public init(platform: PlatformClient) { self.platform = platform }

    /// One page of entries, newest first; `nextBefore` reads on.
    public func entries(_ filter: AuditFilter = AuditFilter()) async throws -> AuditList {
        do { return try await platform.audit(filter) } catch {
            if case .forbidden(let why) = error { throw AuditTrailError.forbidden(why) }
            throw AuditTrailError.platform("cannot read the audit trail: \(error.description)")
        }
    }

    /// Everything recorded about one bulk (its send or resend, moves, take-back; a resend of it), oldest first: what
    /// a bulk's detail shows. At most `limit` entries (the newest of them, when there are more).
    public func history(ofBulk bulkId: String, limit: Int = 50) async throws -> [AuditEntry] {
        let page = try await entries(AuditFilter(bulkId: bulkId, limit: min(max(limit, 1), ListAudit.maxLimit)))
        return page.entries.reversed()
    }

    /// One entry as a line for people: "2026-11-28 10:02  ana (sender, 10.0.0.5)  send  37 recipients, sender Herald".
    /// Terminal-safe: every field from the platform is sanitised.
    public static func line(_ entry: AuditEntry, timeZone: TimeZone = .current) -> String {
        let when = WireTime.date(entry.at).map { time(of: $0, in: timeZone) } ?? entry.at
        let from = entry.address == "local" ? entry.role : "\(entry.role), \(entry.address)"
        var what = entry.what
        if let subject = entry.subject { what = entry.bulkId == nil ? "\(subject): \(what)" : "\(what), again for bulk \(subject)" }
        return TerminalSafeText.sanitize("\(when)  \(entry.actor) (\(from))  \(entry.action)  \(what)")
    }

    /// "2026-11-28 10:02" in `timeZone`.
    static func time(of date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}

extension PlatformClient {
    /// A page of the platform's audit trail (`GET /1/social-invite/audit`).
    public func audit(_ filter: AuditFilter) async throws(APIError) -> AuditList {
        try await call(ListAudit(secret: credentials.applicationSecret, filter: filter))
    }
}

extension Workspace {
    /// The audit trail of the platform this workspace talks to.
    public var audit: AuditTrail { AuditTrail(platform: PlatformClient(credentials: credentials, transport: connection.transport)) }
}
