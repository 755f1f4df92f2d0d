import Foundation
import GRDB
import HeraldCore

/// An application message (template) as last fetched from the platform.
public struct CachedTemplate: Sendable, Hashable, Codable {
    public var messageKey: String
    public var applicationKey: String?
    public var text: String
    public var placeholder: String?
    public var clientPlaceholder: String?
    public var fetchedAt: Date

    public init(messageKey: String, applicationKey: String?, text: String, placeholder: String?,
                clientPlaceholder: String?, fetchedAt: Date) {
        self.messageKey = messageKey
        self.applicationKey = applicationKey
        self.text = text
        self.placeholder = placeholder
        self.clientPlaceholder = clientPlaceholder
        self.fetchedAt = fetchedAt
    }
}

/// Cache of the platform's application messages, by message key.
public struct TemplateCacheStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    public func save(_ t: CachedTemplate) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO template_cache (message_key, application_key, text, placeholder, client_placeholder, fetched_ms)
                VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [t.messageKey, t.applicationKey, t.text, t.placeholder, t.clientPlaceholder,
                                 t.fetchedAt.epochMilliseconds])
        }
    }

    public func template(key: String) throws -> CachedTemplate? {
        try all().first { $0.messageKey == key }
    }

    /// Every cached template, by key.
    public func all() throws -> [CachedTemplate] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM template_cache ORDER BY message_key").map { row in
                let ms: Int64 = row["fetched_ms"]
                return CachedTemplate(messageKey: row["message_key"], applicationKey: row["application_key"],
                                      text: row["text"], placeholder: row["placeholder"],
                                      clientPlaceholder: row["client_placeholder"], fetchedAt: Date(epochMilliseconds: ms))
            }
        }
    }

    public func remove(key: String) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM template_cache WHERE message_key = ?", arguments: [key]) }
    }
}
