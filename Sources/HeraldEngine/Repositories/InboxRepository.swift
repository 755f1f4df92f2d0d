import Foundation
import HeraldAPI
import HeraldCore

/// Users' inbox messages (`inbox`) and the JWT ids already used (`usedJti`).
struct InboxRepository {
    let db: any EngineSQL

    /// Puts `message` in `user`'s inbox.
    func add(_ message: InboxWireMessage, applicationKey: String, user: String) throws {
        try db.execute("""
            INSERT INTO inbox(id, applicationKey, externalUserId, title, body, topic, sentAt, seen) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [message.messageId, applicationKey, user, message.title, message.body, message.topic, message.sendDateTime,
                  message.seen])
    }

    /// How many messages `user` has.
    func count(applicationKey: String, user: String) throws -> Int {
        try db.value(Int.self, "SELECT COUNT(*) FROM inbox WHERE applicationKey = ? AND externalUserId = ?", [applicationKey, user]) ?? 0
    }

    /// A page of `user`'s messages under `filter`, newest first, with the counts of all and of the filtered ones.
    func page(applicationKey: String, user: String, filter: InboxFilter) throws -> InboxResponse {
        let scope = "applicationKey = ? AND externalUserId = ?"
        let scopeArgs: SQLArguments = [applicationKey, user]
        var conditions = scope
        var args = scopeArgs
        if let topic = filter.topic { conditions += " AND topic = ?"; args += [topic] }
        if let from = filter.from { conditions += " AND sentAt >= ?"; args += [from.epochMilliseconds] }
        if let to = filter.to { conditions += " AND sentAt < ?"; args += [to.epochMilliseconds] }
        // The four counts in one pass over the user's messages.
        let counts = try db.row("""
            SELECT COUNT(*) AS total, COALESCE(SUM(CASE WHEN seen = 0 THEN 1 ELSE 0 END), 0) AS unread,
                   COALESCE(SUM(CASE WHEN \(conditions) THEN 1 ELSE 0 END), 0) AS filtered,
                   COALESCE(SUM(CASE WHEN \(conditions) AND seen = 0 THEN 1 ELSE 0 END), 0) AS filteredUnread
            FROM inbox WHERE \(scope)
            """, args + args + scopeArgs)
        let rows = try db.rows("SELECT * FROM inbox WHERE \(conditions) ORDER BY sentAt DESC, id ASC LIMIT ?", args + [filter.limit])
        let messages = rows.map { row in
            InboxWireMessage(messageId: row["id"], title: row["title"], body: row["body"], topic: row["topic"],
                             sendDateTime: row["sentAt"], seen: row["seen"])
        }
        let total: Int = counts?["total"] ?? 0
        let unread: Int = counts?["unread"] ?? 0
        let filtered: Int = counts?["filtered"] ?? 0
        let filteredUnread: Int = counts?["filteredUnread"] ?? 0
        return InboxResponse(countTotal: total, countUnread: unread, countTotalFiltered: filtered,
                             countUnreadFiltered: filteredUnread, messages: messages)
    }

    /// Marks `user`'s message seen at `seenAt` (one seen already keeps its time).
    func markSeen(applicationKey: String, user: String, messageId: String, at seenAt: Int64) throws {
        try db.execute("""
            UPDATE inbox SET seen = 1, seenAt = ? WHERE applicationKey = ? AND externalUserId = ? AND id = ? AND seen = 0
            """, [seenAt, applicationKey, user, messageId])
    }

    /// Marks a JWT id used until `expiresAt` (forgetting ids expired a day before `now`); false when it was used.
    func useTokenId(_ jti: String, applicationKey: String, expiresAt: Int64, now: Int64) throws -> Bool {
        try db.execute("DELETE FROM usedJti WHERE expiresAt < ?", [now - 86_400_000])
        return try db.execute("""
            INSERT INTO usedJti(applicationKey, jti, expiresAt) VALUES (?, ?, ?) ON CONFLICT DO NOTHING
            """, [applicationKey, jti, expiresAt]) > 0
    }
}
