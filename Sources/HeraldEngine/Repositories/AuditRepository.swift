import Foundation
import HeraldAPI

/// Who did something the audit trail records, as the engine knows them: a server key with its client's address, or
/// the terminal (or console) the engine runs in.
struct AuditActor: Sendable, Hashable {
    var name: String
    var keyId: String?
    var role: String
    var address: String

    /// The platform itself (an opt-out a person's stop reply made).
    static let reply = AuditActor(name: "reply", keyId: nil, role: "system", address: "carrier")
}

/// One entry about to be added.
struct AuditRecord: Sendable, Hashable {
    var applicationKey: String
    var at: Int64
    var actor: AuditActor
    var action: AuditAction
    var bulkId: String? = nil
    var subject: String? = nil
    var what: String
}

/// Which entries a read wants, checked.
struct AuditQuery: Sendable, Hashable {
    var bulkId: String?
    var since: Int64?
    var action: AuditAction?
    var before: Int64?
    var limit: Int
    /// Whether entries about keys may be answered (an admin key, or the terminal's own platform).
    var includesKeys: Bool
}

/// The audit trail (`audit`): entries are added in the unit of work of the action they record, and never changed
/// or removed (the schema's triggers refuse it; no statement here asks).
struct AuditRepository {
    let db: any EngineSQL

    /// Adds one entry.
    func append(_ record: AuditRecord) throws {
        try db.execute("""
            INSERT INTO audit(applicationKey, createdAt, actor, keyId, role, address, action, bulkId, subject, what)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [record.applicationKey, record.at, record.actor.name, record.actor.keyId, record.actor.role,
                  record.actor.address, record.action.rawValue, record.bulkId, record.subject, record.what])
    }

    /// The application's entries that `query` wants, newest first, at most `query.limit`.
    func entries(applicationKey: String, _ query: AuditQuery) throws -> [AuditEntry] {
        var sql = "SELECT * FROM audit WHERE applicationKey = ?"
        var arguments: SQLArguments = [applicationKey]
        if let bulkId = query.bulkId {
            // A resend's entry is the new bulk's, and names the bulk it resent as its subject: both tell its story.
            sql += " AND (bulkId = ? OR subject = ?)"
            arguments += [bulkId, bulkId]
        }
        if let since = query.since {
            sql += " AND createdAt >= ?"
            arguments.append(since)
        }
        if let action = query.action {
            sql += " AND action = ?"
            arguments.append(action.rawValue)
        }
        if let before = query.before {
            sql += " AND id < ?"
            arguments.append(before)
        }
        if !query.includesKeys {
            let keyActions = AuditAction.allCases.filter(\.isAboutKeys)
            sql += " AND action NOT IN (\(SQLBatch.list(keyActions.count)))"
            arguments += keyActions.map(\.rawValue)
        }
        sql += " ORDER BY id DESC LIMIT ?"
        arguments.append(query.limit)
        return try db.rows(sql, arguments).map(Self.entry)
    }

    private static func entry(_ row: SQLRow) -> AuditEntry {
        AuditEntry(id: row["id"], at: WireTime.text(Date(epochMilliseconds: row["createdAt"])), actor: row["actor"],
                   keyId: row["keyId"], role: row["role"], address: row["address"], action: row["action"],
                   bulkId: row["bulkId"], subject: row["subject"], what: row["what"])
    }
}
