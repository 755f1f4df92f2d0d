import GRDB

/// Key/value settings kept in the database (not the user's config.toml).
public struct SettingsStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    public func string(_ key: String) throws -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    public func set(_ key: String, _ value: String?) throws {
        try database.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }

    public func int(_ key: String) throws -> Int? { try string(key).flatMap { Int($0) } }
    public func bool(_ key: String) throws -> Bool? { try string(key).map { $0 == "true" } }
    public func set(_ key: String, _ value: Int) throws { try set(key, String(value)) }
    public func set(_ key: String, _ value: Bool) throws { try set(key, value ? "true" : "false") }

    /// Every setting, by key.
    public func all() throws -> [String: String] {
        try database.read { db in
            var out: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, value FROM setting") { out[row[0]] = row[1] }
            return out
        }
    }
}
