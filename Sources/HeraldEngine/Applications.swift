import Foundation
import HeraldAPI
import HeraldCore

/// What a client needs to talk to one application of the platform.
public struct ApplicationCredentials: Sendable, Hashable, Codable {
    public var applicationKey: String
    /// `App <secret>` for invitations, messages, delivery infos, settings, referral links.
    public var secret: String
    /// `App <code>` for the inbox (sandbox) and seen marks; also the JWT `infobip-api-key` claim.
    public var applicationCode: String
    /// The default application message to send.
    public var messageKey: String

    public init(applicationKey: String, secret: String, applicationCode: String, messageKey: String) {
        self.applicationKey = applicationKey
        self.secret = secret
        self.applicationCode = applicationCode
        self.messageKey = messageKey
    }
}

/// A key that signs inbox JWTs: its id (`kid`) and its secret as hex (at least 32 bytes).
public struct JWTKeyInfo: Sendable, Hashable, Codable {
    public var keyId: String
    public var secretHex: String

    public init(keyId: String, secretHex: String) {
        self.keyId = keyId
        self.secretHex = secretHex
    }
}

struct ApplicationRecord: Sendable {
    var key: String
    var name: String
    var secret: String
    var code: String
    var defaultMessageKey: String?
    var messageEditingAllowed: Bool
    var inboxAuthMode: InboxAuthMode

    init(row: SQLRow) {
        key = row["key"]
        name = row["name"]
        secret = row["secret"]
        code = row["code"]
        defaultMessageKey = row["defaultMessageKey"]
        messageEditingAllowed = row["messageEditingAllowed"]
        inboxAuthMode = InboxAuthMode(rawValue: row["inboxAuthMode"] ?? "") ?? .applicationCode
    }

    var settings: ApplicationSettings {
        ApplicationSettings(applicationKey: key, messageEditingAllowed: messageEditingAllowed,
                            inboxAuthMode: inboxAuthMode, defaultMessageKey: defaultMessageKey)
    }
}

extension PlatformEngine {
    static let sandboxMetaKey = "sandboxApplicationKey"
    /// The text of an application's first message.
    public static let defaultMessageText = "Hi {RECEIVER_NAME}, {SENDER_NAME} invites you to Herald: <>"
    /// The shortest JWT secret accepted (HS256 needs 32 bytes; jwt-kit asserts on less).
    public static let minimumJWTSecretBytes = 32

    /// The sandbox application, created on first run (with its default message) and returned again after.
    /// Looking it up and creating it is one write transaction, so processes opening a new folder at
    /// once agree on one application.
    public func bootstrapSandbox() async throws -> ApplicationCredentials {
        let existing = try await store.read { db in try Self.sandboxCredentials(db) }
        if let existing { return existing }
        return try await store.write { [self] db in
            if let existing = try Self.sandboxCredentials(db) { return existing }
            let creds = try createApplication(db, name: "Herald sandbox", messageText: Self.defaultMessageText,
                                              inboxAuthMode: .applicationCode, messageEditingAllowed: true)
            try db.applications.setMeta(Self.sandboxMetaKey, creds.applicationKey)
            return creds
        }
    }

    private static func sandboxCredentials(_ db: any EngineSQL) throws -> ApplicationCredentials? {
        guard let key = try db.applications.meta(sandboxMetaKey),
              let app = try db.applications.find(key: key) else { return nil }
        return ApplicationCredentials(applicationKey: app.key, secret: app.secret, applicationCode: app.code,
                                      messageKey: app.defaultMessageKey ?? "")
    }

    /// A new application with fresh secrets and a default message.
    public func createApplication(name: String, messageText: String = PlatformEngine.defaultMessageText,
                                  inboxAuthMode: InboxAuthMode = .applicationCode,
                                  messageEditingAllowed: Bool = true) async throws -> ApplicationCredentials {
        try await store.write { [self] db in
            try createApplication(db, name: name, messageText: messageText, inboxAuthMode: inboxAuthMode,
                                  messageEditingAllowed: messageEditingAllowed)
        }
    }

    private nonisolated func createApplication(_ db: any EngineSQL, name: String, messageText: String, inboxAuthMode: InboxAuthMode,
                                   messageEditingAllowed: Bool) throws -> ApplicationCredentials {
        let creds = ApplicationCredentials(applicationKey: Identifiers.hex(bytes: 16), secret: Identifiers.hex(bytes: 16),
                                           applicationCode: Identifiers.hex(bytes: 16),
                                           messageKey: Identifiers.hex(bytes: 16).uppercased())
        let now = nowMs
        try db.applications.add(creds, name: name, messageEditingAllowed: messageEditingAllowed, inboxAuthMode: inboxAuthMode, at: now)
        try db.applications.addMessage(MessageRecord(key: creds.messageKey, applicationKey: creds.applicationKey, text: messageText,
                                                     placeholder: MessageTemplate.defaultLinkPlaceholder), at: now)
        return creds
    }

    /// The credentials of an application, nil when unknown.
    public func credentials(applicationKey: String) async throws -> ApplicationCredentials? {
        try await store.read { db in
            guard let app = try db.applications.find(key: applicationKey) else { return nil }
            return ApplicationCredentials(applicationKey: app.key, secret: app.secret, applicationCode: app.code,
                                          messageKey: app.defaultMessageKey ?? "")
        }
    }

    /// The settings of an application.
    public func settings(applicationKey: String) async throws -> ApplicationSettings {
        try await requireApplication(applicationKey).settings
    }

    /// Allows or forbids editing the application's messages (PUT answers 403 when forbidden).
    public func setMessageEditingAllowed(_ allowed: Bool, applicationKey: String) async throws {
        _ = try await requireApplication(applicationKey)
        try await store.write { db in
            try db.applications.update(key: applicationKey, messageEditingAllowed: allowed)
        }
    }

    /// How the application's inbox authenticates (application code, or JWT only).
    public func setInboxAuthMode(_ mode: InboxAuthMode, applicationKey: String) async throws {
        _ = try await requireApplication(applicationKey)
        try await store.write { db in
            try db.applications.update(key: applicationKey, inboxAuthMode: mode)
        }
    }

    /// Adds (or replaces) a JWT signing key. The secret is hex and must decode to at least 32 bytes.
    public func addJWTKey(applicationKey: String, keyId: String, secretHex: String) async throws {
        _ = try await requireApplication(applicationKey)
        guard !keyId.isEmpty, keyId.count <= 200 else {
            throw EngineError.invalidArgument("a JWT key id must have 1 to 200 characters")
        }
        guard let bytes = Identifiers.bytes(fromHex: secretHex) else {
            throw EngineError.invalidJWTSecret("the secret of key \(keyId) is not hexadecimal")
        }
        guard bytes.count >= Self.minimumJWTSecretBytes else {
            throw EngineError.invalidJWTSecret("the secret of key \(keyId) has \(bytes.count) bytes; HS256 needs at least \(Self.minimumJWTSecretBytes) (\(Self.minimumJWTSecretBytes * 2) hex digits)")
        }
        let secret = secretHex.lowercased()
        try await store.write { db in
            try db.keys.putJWTKey(applicationKey: applicationKey, keyId: keyId, secretHex: secret)
        }
    }

    /// Creates a JWT signing key with a fresh 32-byte secret.
    public func generateJWTKey(applicationKey: String, keyId: String) async throws -> JWTKeyInfo {
        let info = JWTKeyInfo(keyId: keyId, secretHex: Identifiers.hex(bytes: Self.minimumJWTSecretBytes))
        try await addJWTKey(applicationKey: applicationKey, keyId: keyId, secretHex: info.secretHex)
        return info
    }

    /// Removes a JWT signing key; tokens signed with it are refused from now on.
    public func removeJWTKey(applicationKey: String, keyId: String) async throws {
        try await store.write { db in
            try db.keys.removeJWTKey(applicationKey: applicationKey, keyId: keyId)
        }
    }

    /// The JWT signing keys of an application.
    public func jwtKeys(applicationKey: String) async throws -> [JWTKeyInfo] {
        try await store.read { db in try db.keys.jwtKeys(applicationKey: applicationKey) }
    }

    nonisolated func requireApplication(_ key: String) async throws -> ApplicationRecord {
        guard let app = try await store.read({ db in try db.applications.find(key: key) }) else {
            throw EngineError.unknownApplication(key)
        }
        return app
    }

    // MARK: - Wire auth

    /// The application whose secret is in `Authorization: App <secret>`; 401 otherwise.
    nonisolated func authenticateSecret(_ request: APIRequest) async throws -> ApplicationRecord {
        guard case .app(let secret)? = request.credential,
              let app = try await store.read({ db in try db.applications.find(secret: secret) }) else {
            throw APIError.unauthorized
        }
        return app
    }

    /// The application whose code is in `Authorization: App <code>`; 401 otherwise.
    nonisolated func authenticateCode(_ request: APIRequest) async throws -> ApplicationRecord {
        guard case .app(let code)? = request.credential,
              let app = try await store.read({ db in try db.applications.find(code: code) }) else {
            throw APIError.unauthorized
        }
        return app
    }
}
