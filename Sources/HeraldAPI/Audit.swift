import Foundation

/// What an audit entry records: the actions that change what the team's recipients get or who may act.
public enum AuditAction: String, Codable, Sendable, Hashable, CaseIterable {
    /// A bulk sent.
    case send
    /// A bulk sent again to another bulk's failed recipients.
    case resend
    /// What a bulk still held moved to another time.
    case move
    /// A held bulk taken back whole: none of it had left.
    case takeBack = "take-back"
    /// A bulk cancelled when part of it had left already (or nothing was held any more).
    case cancel
    case optOutAdd = "opt-out-add"
    case optOutRemove = "opt-out-remove"
    /// An application message (the invitation's text) made or changed.
    case messageCreate = "message-create"
    case messageEdit = "message-edit"
    /// The application's settings changed (message editing, inbox auth, default message).
    case settingsChange = "settings-change"
    /// A server key made.
    case keyCreate = "key-create"
    /// A server key revoked.
    case keyRevoke = "key-revoke"

    /// Whether the entry is about a server key: only an admin key reads those.
    public var isAboutKeys: Bool { rawValue.hasPrefix("key-") }
}

/// One entry of the platform's audit trail: who did what, when and from where. Entries are only ever added.
public struct AuditEntry: Codable, Sendable, Hashable {
    /// Grows with every entry (a page reads on with `before`).
    public var id: Int64
    /// When it happened (`WireTime`).
    public var at: String
    /// Who: the server key's name; on a terminal's own platform its login or sender name; "reply" for an opt-out a
    /// person's stop reply made.
    public var actor: String
    /// The server key's id; nil off a server.
    public var keyId: String?
    /// The key's role ("admin", "sender", "viewer"); "local" on a terminal's own platform or at the server's
    /// console; "system" for what the platform did by itself (a stop reply).
    public var role: String
    /// From where: the client's address on a server; "local" otherwise.
    public var address: String
    /// The action's name (`AuditAction`'s raw value; a name this client does not know is kept as it came).
    public var action: String
    /// The bulk it concerns, when it concerns one.
    public var bulkId: String?
    /// The number (E.164) or key id it concerns, when it concerns one.
    public var subject: String?
    /// What, in a few words ("37 recipients, sender Herald", "moved to 2026-11-29 09:00 UTC").
    public var what: String

    public init(id: Int64, at: String, actor: String, keyId: String?, role: String, address: String, action: String,
                bulkId: String?, subject: String?, what: String) {
        self.id = id
        self.at = at
        self.actor = actor
        self.keyId = keyId
        self.role = role
        self.address = address
        self.action = action
        self.bulkId = bulkId
        self.subject = subject
        self.what = what
    }

    /// The action, when this client knows it.
    public var knownAction: AuditAction? { AuditAction(rawValue: action) }
}

/// The answer of `GET /1/social-invite/audit`: entries newest first.
public struct AuditList: Codable, Sendable, Hashable {
    public var entries: [AuditEntry]
    /// The `before` of the next (older) page; nil when this page holds the oldest entry that matches.
    public var nextBefore: Int64?

    public init(entries: [AuditEntry], nextBefore: Int64?) {
        self.entries = entries
        self.nextBefore = nextBefore
    }
}

/// Which entries an audit read asks for; every field narrows it.
public struct AuditFilter: Sendable, Hashable {
    /// Entries about this bulk.
    public var bulkId: String?
    /// Entries at or after this time.
    public var since: Date?
    /// Entries of this action (asking for a key's as a viewer or sender is refused).
    public var action: AuditAction?
    /// Entries older than this id (the `nextBefore` of the page read last).
    public var before: Int64?
    /// At most this many (1 to `ListAudit.maxLimit`; nil: `ListAudit.defaultLimit`).
    public var limit: Int?

    public init(bulkId: String? = nil, since: Date? = nil, action: AuditAction? = nil, before: Int64? = nil, limit: Int? = nil) {
        self.bulkId = bulkId
        self.since = since
        self.action = action
        self.before = before
        self.limit = limit
    }
}

/// `GET /1/social-invite/audit`: the audit trail, newest first. Any key reads the entries about bulks and opt-outs;
/// those about keys only an admin key (another key gets them left out, or a 403 when it asks for them by action).
public struct ListAudit: Endpoint {
    public typealias Response = AuditList
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/audit"
    public static let defaultLimit = 100
    public static let maxLimit = 1000

    public var secret: String
    public var filter: AuditFilter

    public init(secret: String, filter: AuditFilter = AuditFilter()) {
        self.secret = secret
        self.filter = filter
    }

    public var credential: Credential { .app(secret) }
    public var body: EmptyBody? { nil }
    public var query: [String: String] {
        var query: [String: String] = [:]
        query["bulkId"] = filter.bulkId
        query["since"] = filter.since.map(WireTime.text)
        query["action"] = filter.action?.rawValue
        query["before"] = filter.before.map(String.init)
        query["limit"] = filter.limit.map(String.init)
        return query
    }
}
