import Foundation
import GRDB
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

    init(row: Row) {
        key = row["key"]
        name = row["name"]
        secret = row["secret"]
        code = row["code"]
        defaultMessageKey = row["defaultMessageKey"]
        messageEditingAllowed = row["messageEditingAllowed"]
        inboxAuthMode = InboxAuthMode(rawValue: row["inboxAuthMode"] ?? "") ?? .applicationCode
    }

    static func find(_ db: Database, key: String) throws -> ApplicationRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM application WHERE key = ?", arguments: [key]).map(ApplicationRecord.init)
    }

    static func find(_ db: Database, secret: String) throws -> ApplicationRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM application WHERE secret = ?", arguments: [secret]).map(ApplicationRecord.init)
    }

    static func find(_ db: Database, code: String) throws -> ApplicationRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM application WHERE code = ?", arguments: [code]).map(ApplicationRecord.init)
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
    public func bootstrapSandbox() throws -> ApplicationCredentials {
        let existing = try pool.read { db in try Self.sandboxCredentials(db) }
        if let existing { return existing }
        return try pool.write { db in
            if let existing = try Self.sandboxCredentials(db) { return existing }
            let creds = try createApplication(db, name: "Herald sandbox", messageText: Self.defaultMessageText,
                                              inboxAuthMode: .applicationCode, messageEditingAllowed: true)
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                           arguments: [Self.sandboxMetaKey, creds.applicationKey])
            return creds
        }
    }

    private static func sandboxCredentials(_ db: Database) throws -> ApplicationCredentials? {
        guard let key = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [sandboxMetaKey]),
              let app = try ApplicationRecord.find(db, key: key) else { return nil }
        return ApplicationCredentials(applicationKey: app.key, secret: app.secret, applicationCode: app.code,
                                      messageKey: app.defaultMessageKey ?? "")
    }

    /// A new application with fresh secrets and a default message.
    public func createApplication(name: String, messageText: String = PlatformEngine.defaultMessageText,
                                  inboxAuthMode: InboxAuthMode = .applicationCode,
                                  messageEditingAllowed: Bool = true) throws -> ApplicationCredentials {
        try pool.write { db in
            try createApplication(db, name: name, messageText: messageText, inboxAuthMode: inboxAuthMode,
                                  messageEditingAllowed: messageEditingAllowed)
        }
    }

    private func createApplication(_ db: Database, name: String, messageText: String, inboxAuthMode: InboxAuthMode,
                                   messageEditingAllowed: Bool) throws -> ApplicationCredentials {
        let creds = ApplicationCredentials(applicationKey: Identifiers.hex(bytes: 16), secret: Identifiers.hex(bytes: 16),
                                           applicationCode: Identifiers.hex(bytes: 16),
                                           messageKey: Identifiers.hex(bytes: 16).uppercased())
        let now = nowMs
        try db.execute(sql: """
            INSERT INTO application(key, name, secret, code, defaultMessageKey, messageEditingAllowed, inboxAuthMode, createdAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [creds.applicationKey, name, creds.secret, creds.applicationCode, creds.messageKey,
                             messageEditingAllowed, inboxAuthMode.rawValue, now])
        try db.execute(sql: """
            INSERT INTO message(key, applicationKey, text, placeholder, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [creds.messageKey, creds.applicationKey, messageText, MessageTemplate.defaultLinkPlaceholder,
                             now, now])
        return creds
    }

    /// The credentials of an application, nil when unknown.
    public func credentials(applicationKey: String) throws -> ApplicationCredentials? {
        try pool.read { db in
            guard let app = try ApplicationRecord.find(db, key: applicationKey) else { return nil }
            return ApplicationCredentials(applicationKey: app.key, secret: app.secret, applicationCode: app.code,
                                          messageKey: app.defaultMessageKey ?? "")
        }
    }

    /// The settings of an application.
    public func settings(applicationKey: String) throws -> ApplicationSettings {
        try requireApplication(applicationKey).settings
    }

    /// Allows or forbids editing the application's messages (PUT answers 403 when forbidden).
    public func setMessageEditingAllowed(_ allowed: Bool, applicationKey: String) throws {
        _ = try requireApplication(applicationKey)
        try pool.write { db in
            try db.execute(sql: "UPDATE application SET messageEditingAllowed = ? WHERE key = ?",
                           arguments: [allowed, applicationKey])
        }
    }

    /// How the application's inbox authenticates (application code, or JWT only).
    public func setInboxAuthMode(_ mode: InboxAuthMode, applicationKey: String) throws {
        _ = try requireApplication(applicationKey)
        try pool.write { db in
            try db.execute(sql: "UPDATE application SET inboxAuthMode = ? WHERE key = ?", arguments: [mode.rawValue, applicationKey])
        }
    }

    /// Adds (or replaces) a JWT signing key. The secret is hex and must decode to at least 32 bytes.
    public func addJWTKey(applicationKey: String, keyId: String, secretHex: String) throws {
        _ = try requireApplication(applicationKey)
        guard !keyId.isEmpty, keyId.count <= 200 else {
            throw EngineError.invalidArgument("a JWT key id must have 1 to 200 characters")
        }
        guard let bytes = Identifiers.bytes(fromHex: secretHex) else {
            throw EngineError.invalidJWTSecret("the secret of key \(keyId) is not hexadecimal")
        }
        guard bytes.count >= Self.minimumJWTSecretBytes else {
            throw EngineError.invalidJWTSecret("the secret of key \(keyId) has \(bytes.count) bytes; HS256 needs at least \(Self.minimumJWTSecretBytes) (\(Self.minimumJWTSecretBytes * 2) hex digits)")
        }
        try pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO jwtKey(applicationKey, keyId, secretHex) VALUES (?, ?, ?)",
                           arguments: [applicationKey, keyId, secretHex.lowercased()])
        }
    }

    /// Creates a JWT signing key with a fresh 32-byte secret.
    public func generateJWTKey(applicationKey: String, keyId: String) throws -> JWTKeyInfo {
        let info = JWTKeyInfo(keyId: keyId, secretHex: Identifiers.hex(bytes: Self.minimumJWTSecretBytes))
        try addJWTKey(applicationKey: applicationKey, keyId: keyId, secretHex: info.secretHex)
        return info
    }

    /// Removes a JWT signing key; tokens signed with it are refused from now on.
    public func removeJWTKey(applicationKey: String, keyId: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM jwtKey WHERE applicationKey = ? AND keyId = ?", arguments: [applicationKey, keyId])
        }
    }

    /// The JWT signing keys of an application.
    public func jwtKeys(applicationKey: String) throws -> [JWTKeyInfo] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT keyId, secretHex FROM jwtKey WHERE applicationKey = ? ORDER BY keyId",
                             arguments: [applicationKey]).map { JWTKeyInfo(keyId: $0["keyId"], secretHex: $0["secretHex"]) }
        }
    }

    func requireApplication(_ key: String) throws -> ApplicationRecord {
        guard let app = try pool.read({ db in try ApplicationRecord.find(db, key: key) }) else {
            throw EngineError.unknownApplication(key)
        }
        return app
    }

    // MARK: - Wire auth

    /// The application whose secret is in `Authorization: App <secret>`; 401 otherwise.
    func authenticateSecret(_ request: APIRequest) throws -> ApplicationRecord {
        guard case .app(let secret)? = request.credential,
              let app = try pool.read({ db in try ApplicationRecord.find(db, secret: secret) }) else {
            throw APIError.unauthorized
        }
        return app
    }

    /// The secret's application, which must be the one named in the path.
    func authenticateSecret(_ request: APIRequest, applicationKey: String?) throws -> ApplicationRecord {
        let app = try authenticateSecret(request)
        guard app.key == applicationKey else { throw APIError.unauthorized }
        return app
    }

    /// The application whose code is in `Authorization: App <code>`; 401 otherwise.
    func authenticateCode(_ request: APIRequest) throws -> ApplicationRecord {
        guard case .app(let code)? = request.credential,
              let app = try pool.read({ db in try ApplicationRecord.find(db, code: code) }) else {
            throw APIError.unauthorized
        }
        return app
    }
}
