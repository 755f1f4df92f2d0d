import Foundation
import GRDB
import HeraldCore

/// Cache of users' inbox messages with their seen flags. A message marked unread here stays unread in
/// what this store returns (whatever the platform says) until it is marked seen again.
public struct InboxCacheStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    /// Stores or refreshes messages of a user. A message already marked seen locally stays seen.
    public func save(_ messages: [InboxMessage], userId: String) throws {
        try database.write { db in
            for m in messages {
                try db.execute(sql: """
                    INSERT INTO inbox_message (user_id, message_id, title, body, topic, sent_ms, seen, silent)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(user_id, message_id) DO UPDATE SET title = excluded.title, body = excluded.body,
                        topic = excluded.topic, sent_ms = excluded.sent_ms, silent = excluded.silent,
                        seen = MAX(seen, excluded.seen)
                    """, arguments: [userId, m.messageId, m.title, m.body, m.topic, m.sendDateTime.epochMilliseconds,
                                     m.seen, m.silent])
            }
        }
    }

    /// A user's messages newest first, optionally filtered by topic and date range (from inclusive, to exclusive).
    public func messages(userId: String, filter: InboxFilter? = nil) throws -> [InboxMessage] {
        try database.read { db in
            var sql = "SELECT * FROM inbox_message WHERE user_id = ?"
            var args: [DatabaseValueConvertible?] = [userId]
            if let topic = filter?.topic { sql += " AND topic = ?"; args.append(topic) }
            if let from = filter?.from { sql += " AND sent_ms >= ?"; args.append(from.epochMilliseconds) }
            if let to = filter?.to { sql += " AND sent_ms < ?"; args.append(to.epochMilliseconds) }
            sql += " ORDER BY sent_ms DESC, message_id"
            if let limit = filter?.limit { sql += " LIMIT ?"; args.append(limit) }
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(args)).map(Self.message)
        }
    }

    private static func message(_ row: Row) -> InboxMessage {
        let ms: Int64 = row["sent_ms"]
        let seen: Bool = row["seen"], keptUnread: Bool = row["kept_unread"]
        return InboxMessage(messageId: row["message_id"], title: row["title"], body: row["body"], topic: row["topic"],
                            sendDateTime: Date(epochMilliseconds: ms), seen: seen && !keptUnread, silent: row["silent"])
    }

    /// Sets the seen flag of these messages (used to mark, and to roll a mark back).
    public func setSeen(_ seen: Bool, messageIds: [String], userId: String) throws {
        try database.write { db in
            for id in messageIds {
                try db.execute(sql: "UPDATE inbox_message SET seen = ? WHERE user_id = ? AND message_id = ?",
                               arguments: [seen, userId, id])
            }
        }
    }

    /// Keeps messages unread here whatever the platform says, until they are marked seen again.
    public func keepUnread(messageIds: [String], userId: String) throws {
        try database.write { db in
            for id in messageIds {
                try db.execute(sql: "UPDATE inbox_message SET kept_unread = 1 WHERE user_id = ? AND message_id = ?",
                               arguments: [userId, id])
            }
        }
    }

    /// Messages of a user marked unread here that are seen on the platform (what its counts miss).
    public func keptUnread(userId: String) throws -> [InboxMessage] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM inbox_message WHERE user_id = ? AND kept_unread = 1 AND seen = 1",
                             arguments: [userId]).map(Self.message)
        }
    }

    /// Unread count of a user.
    public func unreadCount(userId: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM inbox_message WHERE user_id = ? AND (seen = 0 OR kept_unread = 1)",
                             arguments: [userId]) ?? 0
        }
    }
}
