import Foundation
import GRDB

/// One seen mark waiting for the platform.
public struct QueuedSeenMark: Sendable, Hashable {
    public var messageId: String
    /// When the user saw it; the report carries the seconds from then to the report. Nil for marks queued by
    /// versions that did not keep it (reported as seen just now).
    public var seenAt: Date?

    public init(messageId: String, seenAt: Date?) {
        self.messageId = messageId
        self.seenAt = seenAt
    }
}

/// Seen marks on their way to the platform (`seen_outbox`), kept with the local seen flag so that a
/// process killed between marking and reporting leaves the mark queued, not lost: queue and mark in
/// one transaction, call the platform, then clear.
public struct SeenOutboxStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    /// Queues the marks and sets the local seen flag of their messages, in one transaction.
    public func queue(_ marks: [QueuedSeenMark], userId: String) throws {
        try database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO seen_outbox (user_id, message_id, timestamp_delta, queued_ms) VALUES (?, ?, ?, ?)
                """)
            let mark = try db.cachedStatement(sql: "UPDATE inbox_message SET seen = 1, kept_unread = 0 WHERE user_id = ? AND message_id = ?")
            for m in marks {
                try insert.execute(arguments: [userId, m.messageId, 0, m.seenAt?.epochMilliseconds ?? 0])
                try mark.execute(arguments: [userId, m.messageId])
            }
        }
    }

    /// Removes marks the platform took (or refused for good); with `unmark`, the local flag is cleared too.
    public func clear(messageIds: [String], userId: String, unmark: Bool = false) throws {
        try database.write { db in
            let delete = try db.cachedStatement(sql: "DELETE FROM seen_outbox WHERE user_id = ? AND message_id = ?")
            let clear = try db.cachedStatement(sql: "UPDATE inbox_message SET seen = 0 WHERE user_id = ? AND message_id = ?")
            for id in messageIds {
                try delete.execute(arguments: [userId, id])
                if unmark { try clear.execute(arguments: [userId, id]) }
            }
        }
    }

    /// The queued marks of one user, oldest first.
    public func marks(userId: String) throws -> [QueuedSeenMark] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT message_id, queued_ms FROM seen_outbox WHERE user_id = ? ORDER BY queued_ms, message_id
                """, arguments: [userId]).map { row in
                    let ms: Int64 = row[1]
                    return QueuedSeenMark(messageId: row[0], seenAt: ms > 0 ? Date(epochMilliseconds: ms) : nil)
                }
        }
    }

    /// Every user with marks waiting.
    public func users() throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT user_id FROM seen_outbox ORDER BY user_id")
        }
    }
}
