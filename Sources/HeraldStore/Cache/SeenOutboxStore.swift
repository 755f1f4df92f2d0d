import Foundation
import GRDB

/// One seen mark waiting for the platform.
public struct QueuedSeenMark: Sendable, Hashable {
    public var messageId: String
    /// Seconds between seeing the message and reporting it, as the wire carries it.
    public var timestampDelta: Int64

    public init(messageId: String, timestampDelta: Int64) {
        self.messageId = messageId
        self.timestampDelta = timestampDelta
    }
}

/// Seen marks on their way to the platform (`seen_outbox`), kept with the local seen flag so that a
/// process killed between marking and reporting leaves the mark queued, not lost: queue and mark in
/// one transaction, call the platform, then clear.
public struct SeenOutboxStore: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    /// Queues the marks and sets the local seen flag of their messages, in one transaction.
    public func queue(_ marks: [QueuedSeenMark], userId: String, at now: Date) throws {
        try database.write { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO seen_outbox (user_id, message_id, timestamp_delta, queued_ms) VALUES (?, ?, ?, ?)
                """)
            let mark = try db.cachedStatement(sql: "UPDATE inbox_message SET seen = 1 WHERE user_id = ? AND message_id = ?")
            for m in marks {
                try insert.execute(arguments: [userId, m.messageId, m.timestampDelta, now.epochMilliseconds])
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
                SELECT message_id, timestamp_delta FROM seen_outbox WHERE user_id = ? ORDER BY queued_ms, message_id
                """, arguments: [userId]).map { QueuedSeenMark(messageId: $0[0], timestampDelta: $0[1]) }
        }
    }

    /// Every user with marks waiting.
    public func users() throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT user_id FROM seen_outbox ORDER BY user_id")
        }
    }
}
