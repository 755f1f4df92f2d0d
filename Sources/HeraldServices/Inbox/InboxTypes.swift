import Foundation
import HeraldAPI
import HeraldCore

/// How inbox reads authenticate.
public enum InboxAuthConfig: Sendable, Hashable {
    /// `App <application code>`: sandbox profiles only.
    case applicationCode
    /// Short-lived JWTs minted from a configured key id and secret.
    case jwt(InboxTokenConfig)
}

/// One page of a user's inbox.
public struct InboxPage: Sendable, Hashable {
    public var externalUserId: String
    /// The filter this page was asked with (the caller's, not the paging one).
    public var filter: InboxFilter
    /// Newest first.
    public var messages: [InboxMessage]
    public var counts: InboxCounts
    /// Whether more messages may follow (the page was full).
    public var hasMore: Bool
    /// True when the platform could not be reached and the page comes from the local cache.
    public var fromCache: Bool
    /// Every message id delivered so far in this paging run (to drop repeats at the boundary).
    var seenIds: Set<String>

    /// The send time of the oldest message of the page: the next page's `dateTimeTo`.
    public var oldestSendTime: Date? { messages.last?.sendDateTime }
}

/// What marking messages seen did.
public struct SeenResult: Sendable, Hashable {
    /// Marked seen now (locally and on the platform).
    public var marked: [String]
    /// Already seen: not sent again.
    public var alreadySeen: [String]

    public init(marked: [String], alreadySeen: [String]) {
        self.marked = marked
        self.alreadySeen = alreadySeen
    }
}

/// Why the inbox could not be read or changed, with what to do about it.
public enum InboxError: Error, Sendable, Hashable, UserFacingError {
    case emptyUser
    /// The application requires a JWT and none is configured.
    case accessTokenMissing
    /// The platform refused the application code.
    case applicationCodeRefused
    /// The platform refused a freshly minted token as well.
    case tokenRefused(keyId: String, keyIdConfigKey: String, secretConfigKey: String)
    /// The JWT configuration is unusable (names the config key).
    case tokenConfig(String)
    /// Marking seen failed; the marks were rolled back and will be retried.
    case seenNotSaved(String, pending: Int)
    /// Marking unread could not be saved on this computer.
    case unreadNotSaved(String)
    case platform(APIError)

    /// The config keys (and variables) that hold the inbox JWT settings.
    public static let jwtConfigHelp = "set inbox.jwt_key_id and inbox.jwt_secret in config.toml "
        + "(or HERALD_INBOX_JWT_KEY_ID and HERALD_INBOX_JWT_SECRET in the environment)"

    public var userMessage: String {
        switch self {
        case .emptyUser:
            return "no inbox user: pass --user with the external user id (it is case-sensitive)"
        case .accessTokenMissing:
            return "this application requires a JWT to read inboxes: \(Self.jwtConfigHelp)"
        case .applicationCodeRefused:
            return "the platform refused the application code for inbox reads: this application may need a JWT; \(Self.jwtConfigHelp)"
        case .tokenRefused(let keyId, let keyKey, let secretKey):
            return "the platform refused the inbox token twice (key id \"\(keyId)\", a fresh token was tried): "
                + "check that \(keyKey) and \(secretKey) match a JWT key of the application"
        case .tokenConfig(let text):
            return "cannot make an inbox token: \(text)"
        case .seenNotSaved(let text, let pending):
            if pending == 0 { return "could not mark the message(s) seen: \(text)" }
            return "the platform did not take \(counted(pending, "seen mark")) yet: \(text); they are marked seen here and sent by the next run (queued)"
        case .unreadNotSaved(let text):
            return "could not mark the message(s) unread: \(text)"
        case .platform(let error):
            return error.description
        }
    }
}
