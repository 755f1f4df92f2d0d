import HeraldAPI

/// Applications (`application`), the engine's own settings (`meta`: which application is the sandbox) and the
/// applications' messages (`message`).
struct ApplicationRepository {
    let db: any EngineSQL

    func find(key: String) throws -> ApplicationRecord? {
        try db.row("SELECT * FROM application WHERE key = ?", [key]).map(ApplicationRecord.init)
    }

    func find(secret: String) throws -> ApplicationRecord? {
        try db.row("SELECT * FROM application WHERE secret = ?", [secret]).map(ApplicationRecord.init)
    }

    func find(code: String) throws -> ApplicationRecord? {
        try db.row("SELECT * FROM application WHERE code = ?", [code]).map(ApplicationRecord.init)
    }

    /// Stores a new application under `creds` (its default message is `creds.messageKey`, added by the caller).
    func add(_ creds: ApplicationCredentials, name: String, messageEditingAllowed: Bool, inboxAuthMode: InboxAuthMode, at: Int64) throws {
        try db.execute("""
            INSERT INTO application(key, name, secret, code, defaultMessageKey, messageEditingAllowed, inboxAuthMode, createdAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [creds.applicationKey, name, creds.secret, creds.applicationCode, creds.messageKey,
                  messageEditingAllowed, inboxAuthMode.rawValue, at])
    }

    /// Changes the settings given (nil: kept as they are).
    func update(key: String, messageEditingAllowed: Bool? = nil, inboxAuthMode: InboxAuthMode? = nil, defaultMessageKey: String? = nil) throws {
        try db.execute("""
            UPDATE application SET messageEditingAllowed = COALESCE(?, messageEditingAllowed),
                inboxAuthMode = COALESCE(?, inboxAuthMode), defaultMessageKey = COALESCE(?, defaultMessageKey)
            WHERE key = ?
            """, [messageEditingAllowed, inboxAuthMode?.rawValue, defaultMessageKey, key])
    }

    /// A value the engine keeps for itself, nil when unset.
    func meta(_ key: String) throws -> String? {
        try db.value(String.self, "SELECT value FROM meta WHERE key = ?", [key])
    }

    /// Sets a value the engine keeps for itself.
    func setMeta(_ key: String, _ value: String) throws {
        try db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])
    }

    /// The value kept under `key`, set to `value` first when there is none (the first of several processes wins).
    func metaOnce(_ key: String, _ value: String) throws -> String {
        try db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", [key, value])
        return try meta(key) ?? value
    }

    /// How many applications there are (a read that tells the database answers).
    func count() throws -> Int {
        try db.value(Int.self, "SELECT COUNT(*) FROM application") ?? 0
    }

    // MARK: - Messages

    /// The application's message `key`, nil when it has none.
    func message(applicationKey: String, key: String) throws -> MessageRecord? {
        try db.row("SELECT * FROM message WHERE applicationKey = ? AND key = ?", [applicationKey, key]).map(MessageRecord.init)
    }

    /// Whether any application has a message `key` (keys are unique across applications).
    func messageExists(key: String) throws -> Bool {
        try db.row("SELECT 1 FROM message WHERE key = ?", [key]) != nil
    }

    /// Stores a new message.
    func addMessage(_ message: MessageRecord, at: Int64) throws {
        try db.execute("""
            INSERT INTO message(key, applicationKey, text, placeholder, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)
            """, [message.key, message.applicationKey, message.text, message.placeholder, at, at])
    }

    /// Stores a message's new text and placeholder.
    func updateMessage(_ message: MessageRecord, at: Int64) throws {
        try db.execute("UPDATE message SET text = ?, placeholder = ?, updatedAt = ? WHERE key = ?",
                       [message.text, message.placeholder, at, message.key])
    }
}
