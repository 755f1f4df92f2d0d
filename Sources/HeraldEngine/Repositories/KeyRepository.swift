import Foundation
import HeraldAPI

/// A Herald server's keys (`apiKey`: only each key's SHA-256 is kept) and the applications' JWT signing keys
/// (`jwtKey`).
struct KeyRepository {
    let db: any EngineSQL

    // MARK: - Server keys

    /// Whether a key that is not revoked goes by `name`.
    func liveKeyNamed(_ name: String) throws -> Bool {
        try db.row("SELECT 1 FROM apiKey WHERE name = ? AND revokedAt IS NULL", [name]) != nil
    }

    /// Stores a new key by its hash.
    func add(_ info: ServerKeyInfo, hash: String) throws {
        try db.execute("INSERT INTO apiKey(id, applicationKey, name, role, hash, createdAt, maxSpendPerDay) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [info.id, info.applicationKey, info.name, info.role.rawValue, hash, info.createdAt.epochMilliseconds,
                        info.maxSpendPerDay])
    }

    /// Every key made, revoked ones included, oldest first.
    func all() throws -> [ServerKeyInfo] {
        try db.rows("SELECT * FROM apiKey ORDER BY createdAt, id").map(Self.keyInfo)
    }

    /// Revokes the live key with this id or name at `at`; nil when none is live under it.
    func revoke(idOrName: String, at: Int64) throws -> ServerKeyInfo? {
        guard let row = try db.row("SELECT * FROM apiKey WHERE (id = ? OR name = ?) AND revokedAt IS NULL",
                                   [idOrName, idOrName]) else { return nil }
        try db.execute("UPDATE apiKey SET revokedAt = ? WHERE id = ?", [at, row["id"] as String])
        var info = Self.keyInfo(row)
        info.revokedAt = Date(epochMilliseconds: at)
        return info
    }

    /// The live key whose hash is `hash`, nil when none.
    func live(hash: String) throws -> ServerKeyInfo? {
        try db.row("SELECT * FROM apiKey WHERE hash = ? AND revokedAt IS NULL", [hash]).map(Self.keyInfo)
    }

    /// The ids of every revoked key.
    func revokedIds() throws -> Set<String> {
        Set(try db.rows("SELECT id FROM apiKey WHERE revokedAt IS NOT NULL").map { $0["id"] as String })
    }

    private static func keyInfo(_ row: SQLRow) -> ServerKeyInfo {
        ServerKeyInfo(id: row["id"], name: row["name"], role: KeyRole(rawValue: row["role"]) ?? .viewer,
                      applicationKey: row["applicationKey"], createdAt: Date(epochMilliseconds: row["createdAt"]),
                      revokedAt: (row["revokedAt"] as Int64?).map(Date.init(epochMilliseconds:)),
                      maxSpendPerDay: row["maxSpendPerDay"])
    }

    /// The cap on what the key `id` may spend a day; nil when it has none (or there is no such key).
    func maxSpendPerDay(keyId: String) throws -> Double? {
        try db.row("SELECT maxSpendPerDay FROM apiKey WHERE id = ?", [keyId]).flatMap { $0["maxSpendPerDay"] as Double? }
    }

    // MARK: - JWT signing keys

    /// Adds or replaces an application's signing key.
    func putJWTKey(applicationKey: String, keyId: String, secretHex: String) throws {
        try db.execute("""
            INSERT INTO jwtKey(applicationKey, keyId, secretHex) VALUES (?, ?, ?)
            ON CONFLICT(applicationKey, keyId) DO UPDATE SET secretHex = excluded.secretHex
            """, [applicationKey, keyId, secretHex])
    }

    /// Removes an application's signing key.
    func removeJWTKey(applicationKey: String, keyId: String) throws {
        try db.execute("DELETE FROM jwtKey WHERE applicationKey = ? AND keyId = ?", [applicationKey, keyId])
    }

    /// An application's signing keys, by id.
    func jwtKeys(applicationKey: String) throws -> [JWTKeyInfo] {
        try db.rows("SELECT keyId, secretHex FROM jwtKey WHERE applicationKey = ? ORDER BY keyId", [applicationKey])
            .map { JWTKeyInfo(keyId: $0["keyId"], secretHex: $0["secretHex"]) }
    }

    /// The secret (hex) of an application's signing key, nil when it has no such key.
    func jwtSecretHex(applicationKey: String, keyId: String) throws -> String? {
        try db.value(String.self, "SELECT secretHex FROM jwtKey WHERE applicationKey = ? AND keyId = ?", [applicationKey, keyId])
    }
}
