import Crypto
import Foundation
import HeraldAPI

/// A key of a Herald server as listed: never the key itself, which is shown once when made and then only
/// its SHA-256 is kept.
public struct ServerKeyInfo: Sendable, Hashable, Codable {
    /// A short id to name the key by (in lists and `keys revoke`).
    public var id: String
    public var name: String
    public var role: KeyRole
    public var applicationKey: String
    public var createdAt: Date
    public var revokedAt: Date?
    /// What the key may spend a day (UTC), counted against the prices of its messages (`SpendCaps`); nil: no cap.
    public var maxSpendPerDay: Double? = nil
}

/// Who a presented key is.
public struct ServerKeyHolder: Sendable, Hashable {
    public var key: ServerKeyInfo
    public var application: ApplicationCredentials
}

extension PlatformEngine {
    static let serverKeyPrefix = "hk_"

    nonisolated static func keyHash(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Makes a key for the application (the sandbox application when nil); answers the key, shown only now.
    public func createServerKey(role: KeyRole, name: String, applicationKey: String? = nil,
                                maxSpendPerDay: Double? = nil) async throws -> (key: String, info: ServerKeyInfo) {
        if let cap = maxSpendPerDay, !(cap >= 0 && cap.isFinite) {
            throw EngineError.invalidArgument("a key's spend a day must be an amount of 0 or more, like 5")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw EngineError.invalidArgument("a key name must have 1 to 100 characters and no control characters")
        }
        let appKey: String
        if let applicationKey { appKey = applicationKey } else { appKey = try await bootstrapSandbox().applicationKey }
        _ = try await requireApplication(appKey)
        let key = Self.serverKeyPrefix + Identifiers.hex(bytes: 24)
        let info = ServerKeyInfo(id: Identifiers.hex(bytes: 4), name: trimmed, role: role, applicationKey: appKey,
                                 createdAt: Date(epochMilliseconds: nowMs), revokedAt: nil, maxSpendPerDay: maxSpendPerDay)
        let actor = localAuditActor
        try await store.write { db in
            if try db.keys.liveKeyNamed(trimmed) {
                throw EngineError.invalidArgument("a key named \"\(trimmed)\" exists already: revoke it or choose another name")
            }
            try db.keys.add(info, hash: Self.keyHash(key))
            try db.audit.append(AuditRecord(applicationKey: appKey, at: info.createdAt.epochMilliseconds, actor: actor, action: .keyCreate,
                                            subject: info.id, what: "key \(info.id) \"\(Self.auditText(info.name))\" (\(info.role.rawValue)) made"))
        }
        return (key, info)
    }

    /// Every key made, revoked ones included, oldest first.
    public nonisolated func serverKeys() async throws -> [ServerKeyInfo] {
        try await store.read { db in try db.keys.all() }
    }

    /// Revokes the key with this id or name; nil when none is live under it.
    public func revokeServerKey(_ idOrName: String) async throws -> ServerKeyInfo? {
        let at = nowMs
        let actor = localAuditActor
        return try await store.write { db in
            guard let revoked = try db.keys.revoke(idOrName: idOrName, at: at) else { return nil }
            try db.audit.append(AuditRecord(applicationKey: revoked.applicationKey, at: at, actor: actor, action: .keyRevoke, subject: revoked.id,
                                            what: "key \(revoked.id) \"\(Self.auditText(revoked.name))\" (\(revoked.role.rawValue)) revoked"))
            return revoked
        }
    }

    /// The live key presented, with its application; nil for an unknown or revoked key.
    public nonisolated func holder(ofServerKey key: String) async throws -> ServerKeyHolder? {
        guard key.hasPrefix(Self.serverKeyPrefix) else { return nil }
        let hash = Self.keyHash(key)
        return try await store.read { db in
            guard let key = try db.keys.live(hash: hash),
                  let app = try db.applications.find(key: key.applicationKey) else { return nil }
            return ServerKeyHolder(key: key, application: ApplicationCredentials(
                applicationKey: app.key, secret: app.secret, applicationCode: app.code, messageKey: app.defaultMessageKey ?? ""))
        }
    }

    /// The ids of every revoked key (a replica's event streams end when theirs is among them).
    public nonisolated func revokedServerKeyIds() async throws -> Set<String> {
        try await store.read { db in try db.keys.revokedIds() }
    }

    /// Throws when the database does not answer (the server's `/health`).
    public nonisolated func checkHealth() async throws {
        try await store.read { db in _ = try db.applications.count() }
    }

    /// Messages the carrier has not finished with: still in the outbox, or waiting for a report.
    public nonisolated func carrierQueue() async throws -> Int {
        try await store.read { db in try db.outbox.carrierQueue() }
    }
}
