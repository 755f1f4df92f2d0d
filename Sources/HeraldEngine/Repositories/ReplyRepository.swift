import Foundation
import HeraldAPI
import HeraldCore

/// A reply about to be kept: checked, with its thread found.
struct NewReply: Sendable, Hashable {
    var messageId: String
    /// E.164 without the plus.
    var from: String
    var to: String?
    var text: String
    var receivedAt: Int64
    var price: Double?
    var currency: String?
    var bulkId: String?
    var invitationMessageId: String?
    var optedOut: Bool
}

/// The latest invitation sent to a number before a time: the thread a reply answers.
struct ReplyThread: Sendable, Hashable {
    var bulkId: String
    var messageId: String
}

/// Which conversations a list wants, checked.
struct ConversationQuery: Sendable, Hashable {
    var unreadOnly = false
    /// E.164 without the plus: this number's conversation, even when it holds no reply yet.
    var number: String?
    /// Conversations whose latest message is older than this.
    var before: Int64?
    var limit: Int
}

/// Replies people sent back (`reply`), and one summary per number (`conversation`) kept with every reply, seen mark
/// and sent message (a trigger of the schema counts what `sent` takes), so a list or a thread is one indexed read.
struct ReplyRepository {
    let db: any EngineSQL

    /// The latest invitation of the application that left for `msisdn` at or before `at` (a held one that had not
    /// left yet, or one taken back, is not).
    func latestInvitation(applicationKey: String, msisdn: String, atOrBefore at: Int64) throws -> ReplyThread? {
        try db.row("""
            SELECT id, bulkId FROM sent
            WHERE applicationKey = ? AND address = ? AND sentAt <= ? AND accepted = 1 AND channel = 'sms'
              AND status <> 'Cancelled' AND (notBefore IS NULL OR notBefore <= ?)
            ORDER BY sentAt DESC, id DESC LIMIT 1
            """, [applicationKey, msisdn, at, at]).map { ReplyThread(bulkId: $0["bulkId"], messageId: $0["id"]) }
    }

    /// Keeps `reply` unless one with its messageId is kept already, and counts it in its number's summary. Answers
    /// whether it was new.
    func insert(_ reply: NewReply, applicationKey: String, storedAt: Int64) throws -> Bool {
        let added = try db.execute("""
            INSERT INTO reply(applicationKey, messageId, fromNumber, toNumber, text, receivedAt, price, currency, seen, bulkId,
                              invitationMessageId, optedOut, storedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
            ON CONFLICT(applicationKey, messageId) DO NOTHING
            """, [applicationKey, reply.messageId, reply.from, reply.to, reply.text, reply.receivedAt, reply.price, reply.currency,
                  reply.bulkId, reply.invitationMessageId, reply.optedOut, storedAt])
        guard added > 0 else { return false }
        try db.execute("""
            INSERT INTO conversation(applicationKey, number, lastAt, lastText, lastIsReply, unread, replies, sent)
            VALUES (?, ?, ?, ?, 1, 1, 1, 0)
            ON CONFLICT(applicationKey, number) DO UPDATE SET
                unread = conversation.unread + 1,
                replies = conversation.replies + 1,
                lastText = CASE WHEN excluded.lastAt >= conversation.lastAt THEN excluded.lastText ELSE conversation.lastText END,
                lastIsReply = CASE WHEN excluded.lastAt >= conversation.lastAt THEN 1 ELSE conversation.lastIsReply END,
                lastAt = CASE WHEN excluded.lastAt >= conversation.lastAt THEN excluded.lastAt ELSE conversation.lastAt END
            """, [applicationKey, reply.from, reply.receivedAt, reply.text])
        return true
    }

    /// The kept reply `messageId`, nil when there is none.
    func find(applicationKey: String, messageId: String) throws -> ReplyWire? {
        try db.row("SELECT * FROM reply WHERE applicationKey = ? AND messageId = ?", [applicationKey, messageId]).map(Self.wire)
    }

    /// Conversations newest first (at most `query.limit`), each with its counts.
    func conversations(applicationKey: String, _ query: ConversationQuery) throws -> [ConversationSummary] {
        var sql = "SELECT * FROM conversation WHERE applicationKey = ?"
        var arguments: SQLArguments = [applicationKey]
        if let number = query.number {
            sql += " AND number = ?"
            arguments.append(number)
        } else {
            sql += " AND replies > 0"
        }
        if query.unreadOnly { sql += " AND unread > 0" }
        if let before = query.before {
            sql += " AND lastAt < ?"
            arguments.append(before)
        }
        sql += " ORDER BY lastAt DESC, number DESC LIMIT ?"
        arguments.append(query.limit)
        return try db.rows(sql, arguments).map(Self.summary)
    }

    /// The summary of `msisdn`'s conversation, nil when nothing was sent to it or came from it.
    func conversation(applicationKey: String, msisdn: String) throws -> ConversationSummary? {
        try db.row("SELECT * FROM conversation WHERE applicationKey = ? AND number = ?", [applicationKey, msisdn]).map(Self.summary)
    }

    /// Unread replies of the whole application.
    func unreadTotal(applicationKey: String) throws -> Int {
        // A sum is NUMERIC on PostgreSQL: cast back to a whole number, as both stores read it.
        try db.value(Int.self, "SELECT CAST(COALESCE(SUM(unread), 0) AS BIGINT) FROM conversation WHERE applicationKey = ? AND unread > 0",
                     [applicationKey]) ?? 0
    }

    /// The newest `limit` messages of `msisdn`'s thread older than `before`, newest first: replies from the number and
    /// SMS the application sent it (accepted ones).
    func thread(applicationKey: String, msisdn: String, before: Int64?, limit: Int) throws -> [(at: Int64, entry: ThreadEntry)] {
        let older = before.map { _ in " AND receivedAt < ?" } ?? ""
        let replies = try db.rows("""
            SELECT messageId, text, receivedAt, seen, bulkId, price FROM reply
            WHERE applicationKey = ? AND fromNumber = ?\(older) ORDER BY receivedAt DESC, messageId DESC LIMIT ?
            """, [applicationKey, msisdn] + (before.map { [$0] } ?? []) + [limit]).map { row -> (at: Int64, entry: ThreadEntry) in
            let at: Int64 = row["receivedAt"]
            return (at, ThreadEntry(kind: .reply, messageId: row["messageId"], at: WireTime.text(Date(epochMilliseconds: at)),
                                    text: row["text"], bulkId: row["bulkId"], seen: row["seen"], price: row["price"]))
        }
        let sentBefore = before.map { _ in " AND sentAt < ?" } ?? ""
        let sent = try db.rows("""
            SELECT id, bulkId, text, status, sentAt, price FROM sent
            WHERE applicationKey = ? AND address = ?\(sentBefore) AND accepted = 1 AND channel = 'sms'
            ORDER BY sentAt DESC, id DESC LIMIT ?
            """, [applicationKey, msisdn] + (before.map { [$0] } ?? []) + [limit]).map { row -> (at: Int64, entry: ThreadEntry) in
            let at: Int64 = row["sentAt"]
            return (at, ThreadEntry(kind: .sent, messageId: row["id"], at: WireTime.text(Date(epochMilliseconds: at)),
                                    text: (row["text"] as String?) ?? "", bulkId: row["bulkId"],
                                    status: DeliveryStatus(parsing: row["status"]), price: row["price"]))
        }
        // Newest first; at one instant a reply comes after the message it answers.
        let merged = (replies + sent).sorted { a, b in
            if a.at != b.at { return a.at > b.at }
            if a.entry.kind != b.entry.kind { return a.entry.kind == .reply }
            return a.entry.messageId > b.entry.messageId
        }
        return Array(merged.prefix(limit))
    }

    /// Marks `msisdn`'s unread replies seen, those up to and including (`receivedAt`, `messageId`) when given; answers
    /// how many were marked, and sets the summary's unread count to what is left.
    func markSeen(applicationKey: String, msisdn: String, upTo: (receivedAt: Int64, messageId: String)?, at: Int64) throws
        -> (marked: Int, unread: Int) {
        var sql = "UPDATE reply SET seen = 1, seenAt = ? WHERE applicationKey = ? AND fromNumber = ? AND seen = 0"
        var arguments: SQLArguments = [at, applicationKey, msisdn]
        if let upTo {
            sql += " AND (receivedAt < ? OR (receivedAt = ? AND messageId <= ?))"
            arguments += [upTo.receivedAt, upTo.receivedAt, upTo.messageId]
        }
        let marked = try db.execute(sql, arguments)
        let unread = try db.value(Int.self, "SELECT COUNT(*) FROM reply WHERE applicationKey = ? AND fromNumber = ? AND seen = 0",
                                  [applicationKey, msisdn]) ?? 0
        try db.execute("UPDATE conversation SET unread = ? WHERE applicationKey = ? AND number = ?", [unread, applicationKey, msisdn])
        return (marked, unread)
    }

    /// The kept reply `messageId` of `msisdn`, with when it arrived; nil when the number has no such reply.
    func position(applicationKey: String, msisdn: String, messageId: String) throws -> (receivedAt: Int64, messageId: String)? {
        try db.row("SELECT receivedAt FROM reply WHERE applicationKey = ? AND messageId = ? AND fromNumber = ?",
                   [applicationKey, messageId, msisdn]).map { ($0["receivedAt"], messageId) }
    }

    static func wire(_ row: SQLRow) -> ReplyWire {
        ReplyWire(messageId: row["messageId"], from: row["fromNumber"], to: row["toNumber"], text: row["text"],
                  receivedAt: WireTime.text(Date(epochMilliseconds: row["receivedAt"])), price: row["price"], currency: row["currency"],
                  seen: row["seen"], bulkId: row["bulkId"], invitationMessageId: row["invitationMessageId"], optedOut: row["optedOut"])
    }

    private static func summary(_ row: SQLRow) -> ConversationSummary {
        ConversationSummary(number: row["number"], lastAt: WireTime.text(Date(epochMilliseconds: row["lastAt"])),
                            lastText: row["lastText"], lastIsReply: row["lastIsReply"], unread: row["unread"],
                            replies: row["replies"], sent: row["sent"])
    }
}
