import Foundation

/// How an application authenticates inbox reads.
public enum InboxAuthMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// `App <application code>` (sandbox profiles).
    case applicationCode
    /// `Bearer <jwt>` only; an application code gets ACCESS_TOKEN_MISSING.
    case jwt
}

/// Settings of an application a client may read and change (Herald's).
public struct ApplicationSettings: Codable, Sendable, Hashable {
    public var applicationKey: String
    public var messageEditingAllowed: Bool
    public var inboxAuthMode: InboxAuthMode
    public var defaultMessageKey: String?

    public init(applicationKey: String, messageEditingAllowed: Bool, inboxAuthMode: InboxAuthMode,
                defaultMessageKey: String?) {
        self.applicationKey = applicationKey
        self.messageEditingAllowed = messageEditingAllowed
        self.inboxAuthMode = inboxAuthMode
        self.defaultMessageKey = defaultMessageKey
    }
}

/// Body of a settings change; nil fields stay as they are.
public struct ApplicationSettingsBody: Codable, Sendable, Hashable {
    public var messageEditingAllowed: Bool?
    public var inboxAuthMode: InboxAuthMode?
    public var defaultMessageKey: String?

    public init(messageEditingAllowed: Bool? = nil, inboxAuthMode: InboxAuthMode? = nil, defaultMessageKey: String? = nil) {
        self.messageEditingAllowed = messageEditingAllowed
        self.inboxAuthMode = inboxAuthMode
        self.defaultMessageKey = defaultMessageKey
    }
}

/// `GET /herald/1/application/{applicationKey}/settings` with `App <application secret>`.
public struct GetApplicationSettings: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ApplicationSettings
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/herald/1/application/{applicationKey}/settings"

    public var secret: String
    public var applicationKey: String

    public init(secret: String, applicationKey: String) {
        self.secret = secret
        self.applicationKey = applicationKey
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey] }
    public var body: EmptyBody? { nil }
}

/// `PUT /herald/1/application/{applicationKey}/settings` with `App <application secret>`.
public struct UpdateApplicationSettings: Endpoint {
    public typealias Response = ApplicationSettings
    public static let method = HTTPMethod.put
    public static let path: PathTemplate = "/herald/1/application/{applicationKey}/settings"

    public var secret: String
    public var applicationKey: String
    public var payload: ApplicationSettingsBody

    public init(secret: String, applicationKey: String, body: ApplicationSettingsBody) {
        self.secret = secret
        self.applicationKey = applicationKey
        self.payload = body
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey] }
    public var body: ApplicationSettingsBody? { payload }
}

/// A short link and how often it was opened.
public struct ReferralLink: Codable, Sendable, Hashable {
    /// The full link ("https://herald.invalid/r/k3J9x2").
    public var url: String
    /// The code at its end.
    public var code: String
    public var clicks: Int
    /// The sent message the link belongs to, for per-recipient links.
    public var messageId: String?
    /// The person sharing the link, for referral links.
    public var referrer: String?

    public init(url: String, code: String, clicks: Int, messageId: String? = nil, referrer: String? = nil) {
        self.url = url
        self.code = code
        self.clicks = clicks
        self.messageId = messageId
        self.referrer = referrer
    }
}

/// `GET /herald/1/application/{applicationKey}/referral` with `App <application secret>`.
///
/// With `messageId`: the short link that was put in that sent message, with its clicks (404 when unknown).
/// With `referrer`: that person's own shareable referral link, created on first ask and stable after.
public struct GetReferralLink: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ReferralLink
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/herald/1/application/{applicationKey}/referral"

    public enum Subject: Sendable, Hashable {
        case message(id: String)
        case referrer(String)
    }

    public var secret: String
    public var applicationKey: String
    public var subject: Subject

    public init(secret: String, applicationKey: String, subject: Subject) {
        self.secret = secret
        self.applicationKey = applicationKey
        self.subject = subject
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey] }
    public var body: EmptyBody? { nil }
    public var query: [String: String] {
        switch subject {
        case .message(let id): return ["messageId": id]
        case .referrer(let name): return ["referrer": name]
        }
    }
}
