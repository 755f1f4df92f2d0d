import Foundation
import HeraldAPI
import HeraldCore

/// A new message row as a send stores it: the message, its place in the request, where it waits (`outbox`: 0 never
/// handed over, 1 to hand over, 3 held here) and its channel.
struct NewSentRow {
    var message: SentMessage
    var position: Int
    var outbox: Int
    var email: Bool
}

/// Bulks and their messages (`bulk`, `sent`) as sends, reads and the carrier's reports see them.
struct BulkRepository {
    let db: any EngineSQL

    /// Stores a new bulk.
    func addBulk(id: String, applicationKey: String, messageKey: String, sender: String, subject: String?, at: Int64) throws {
        try db.execute("INSERT INTO bulk(id, applicationKey, messageKey, sender, createdAt, subject) VALUES (?, ?, ?, ?, ?, ?)",
                       [id, applicationKey, messageKey, sender, at, subject])
    }

    /// Whether the application has a bulk `id`.
    func exists(_ id: String, applicationKey: String) throws -> Bool {
        try db.row("SELECT 1 FROM bulk WHERE id = ? AND applicationKey = ?", [id, applicationKey]) != nil
    }

    /// Stores new messages, a chunk of rows per statement, all sent and last changed at `at`.
    func insert(_ rows: [NewSentRow], applicationKey: String, at: Int64) throws {
        for chunk in SQLBatch.chunks(rows) {
            try db.execute("""
                INSERT INTO sent(id, applicationKey, bulkId, position, address, accepted, reason, text, price, sentAt, linkCode,
                                 status, statusAt, outbox, nextCheckAt, notBefore, channel)
                VALUES \(SQLBatch.values(chunk.count, columns: 17))
                """, chunk.flatMap { row -> SQLArguments in
                    let s = row.message
                    return [s.messageId, applicationKey, s.bulkId, row.position, s.address, s.accepted, s.reason, s.text, s.price,
                            at, s.linkCode, s.status.rawValue, at, row.outbox, nil, s.notBefore?.epochMilliseconds,
                            row.email ? "email" : "sms"]
                })
        }
    }

    /// The application's message `id`, nil when unknown.
    func message(applicationKey: String, id: String) throws -> SentMessage? {
        try db.row("SELECT * FROM sent WHERE applicationKey = ? AND id = ?", [applicationKey, id]).map(SentMessage.init)
    }

    /// The application's stored messages with these ids, by id (a chunk per read).
    func messages(applicationKey: String, ids: [String]) throws -> [String: SentMessage] {
        var found: [String: SentMessage] = [:]
        for chunk in SQLBatch.chunks(Array(Set(ids))) {
            for row in try db.rows("SELECT * FROM sent WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))",
                                   [applicationKey] + Array(chunk)) {
                let sent = SentMessage(row: row)
                found[sent.messageId] = sent
            }
        }
        return found
    }

    /// Every stored message of a bulk, in request order (rejected ones included).
    func messages(bulkId: String) throws -> [SentMessage] {
        try db.rows("SELECT * FROM sent WHERE bulkId = ? ORDER BY position", [bulkId]).map(SentMessage.init)
    }

    /// The accepted messages of an application's bulk in request order, each with its link's clicks; nil when it has
    /// no such bulk.
    func accepted(bulkId: String, applicationKey: String) throws -> [SentMessage]? {
        guard try exists(bulkId, applicationKey: applicationKey) else { return nil }
        return try db.rows("""
            SELECT s.*, l.clicks AS clicks FROM sent s LEFT JOIN shortLink l ON l.code = s.linkCode
            WHERE s.bulkId = ? AND s.accepted = 1 ORDER BY s.position
            """, [bulkId]).map { row in
            var message = SentMessage(row: row)
            message.clicks = row["clicks"]
            return message
        }
    }

    /// The status and reason of every message of these bulks, by message id.
    func outcomes(bulkIds: [String]) throws -> [String: (status: DeliveryStatus, reason: String?)] {
        let rows = try db.rows("SELECT id, status, reason FROM sent WHERE bulkId IN (\(SQLBatch.list(bulkIds.count)))", bulkIds)
        return Dictionary(rows.map { ($0["id"] as String, (DeliveryStatus(parsing: $0["status"]), $0["reason"] as String?)) }) {
            first, _ in first
        }
    }

    /// Who sent each of these message ids: its application and bulk (an id may be in several applications).
    func owners(messageIds: [String]) throws -> [String: [(app: String, bulk: String)]] {
        var found: [String: [(app: String, bulk: String)]] = [:]
        for chunk in SQLBatch.chunks(Array(Set(messageIds))) {
            for row in try db.rows("SELECT applicationKey, id, bulkId FROM sent WHERE id IN (\(SQLBatch.list(chunk.count)))", Array(chunk)) {
                found[row["id"], default: []].append((row["applicationKey"], row["bulkId"]))
            }
        }
        return found
    }
}
