import Foundation
import HeraldAPI
import HeraldCore

/// An SMS claimed for a hand-over to the carrier.
struct ClaimedSMS: Sendable {
    var applicationKey: String
    var message: OutboundSMS
}

/// A handed-over message whose report is due.
struct DueReport: Sendable {
    var applicationKey: String
    var messageId: String
    var bulkId: String
    var sentAt: Int64
    var status: DeliveryStatus
    var nextCheckAt: Int64
}

/// A message as a carrier report finds it.
struct ReportedMessage: Sendable {
    var bulkId: String
    var address: String
    var price: Double
    var currency: String?
    var reason: String?
    var status: String
    var outbox: Int
    var nextCheckAt: Int64?
}

/// A message as a report leaves it.
struct ReportedUpdate: Sendable {
    var messageId: String
    var status: DeliveryStatus
    var nextCheckAt: Int64?
    var price: Double
    var currency: String?
    var reason: String?
    var permanent: Bool
}

/// The outbox (`sent.outbox`: 1 to hand over, 2 claimed with a lease in `nextCheckAt`, 3 held, 0 handed over or never
/// sent) and the reports the carrier gives back: claims, due asks, stored reports.
struct OutboxRepository {
    let db: any EngineSQL

    /// When the earliest report is due or the earliest held message is released; nil when nothing waits.
    func nextDue() throws -> Int64? {
        try db.value(Int64.self, """
            SELECT MIN(due) FROM (
                SELECT MIN(nextCheckAt) AS due FROM sent WHERE nextCheckAt IS NOT NULL AND outbox = 0
                UNION ALL SELECT MIN(notBefore) AS due FROM sent WHERE outbox = 3) AS next
            """)
    }

    /// Messages the carrier has not finished with: still in the outbox, or waiting for a report.
    func carrierQueue() throws -> Int {
        try db.value(Int.self, "SELECT COUNT(*) FROM sent WHERE outbox > 0 OR nextCheckAt IS NOT NULL") ?? 0
    }

    /// Claims up to `limit` SMS of the outbox (of `bulkId` when given) until `lease`: new ones, and claims whose lease
    /// ran out by `at` (handed over again marked `mayHaveBeenSent`).
    func claimSMS(at: Int64, lease: Int64, bulkId: String?, limit: Int) throws -> [ClaimedSMS] {
        let rows = try db.rows("""
            SELECT s.applicationKey, s.id, s.bulkId, s.address, s.text, s.sentAt, s.outbox, s.notBefore, b.sender
            FROM sent s JOIN bulk b ON b.id = s.bulkId
            WHERE s.channel = 'sms' AND (s.outbox = 1 OR (s.outbox = 2 AND COALESCE(s.nextCheckAt, 0) <= ?))
              \(bulkId == nil ? "" : "AND s.bulkId = ?") LIMIT ?
            """, [at] + (bulkId.map { [$0] } ?? []) + [limit])
        for (app, group) in Dictionary(grouping: rows, by: { $0["applicationKey"] as String }) {
            for chunk in SQLBatch.chunks(group) {
                try db.execute("""
                    UPDATE sent SET outbox = 2, nextCheckAt = ? WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))
                    """, [lease, app] + chunk.map { $0["id"] as String })
            }
        }
        return rows.map { row in
            let outbox: Int = row["outbox"]
            return ClaimedSMS(applicationKey: row["applicationKey"], message: OutboundSMS(
                messageId: row["id"], bulkId: row["bulkId"], address: row["address"], sender: row["sender"],
                text: row["text"] ?? "", acceptedAt: Date(epochMilliseconds: row["sentAt"]), mayHaveBeenSent: outbox == 2,
                sendAt: (row["notBefore"] as Int64?).flatMap { $0 > at ? Date(epochMilliseconds: $0) : nil }))
        }
    }

    /// Up to `limit` handed-over messages whose report is due by `dueBy` (of `bulkId` when given), after the key
    /// `(nextCheckAt, id)` of the last page, in that order.
    func dueReports(by dueBy: Int64, bulkId: String?, after: (Int64, String), limit: Int) throws -> [DueReport] {
        try db.rows("""
            SELECT applicationKey, id, bulkId, sentAt, status, nextCheckAt FROM sent
            WHERE nextCheckAt IS NOT NULL AND outbox = 0 AND nextCheckAt <= ? \(bulkId == nil ? "" : "AND bulkId = ?")
              AND (nextCheckAt, id) > (?, ?)
            ORDER BY nextCheckAt, id LIMIT ?
            """, [dueBy] + (bulkId.map { [$0] } ?? []) + [after.0, after.1, limit]).map { row in
            DueReport(applicationKey: row["applicationKey"], messageId: row["id"], bulkId: row["bulkId"], sentAt: row["sentAt"],
                      status: DeliveryStatus(parsing: row["status"]), nextCheckAt: row["nextCheckAt"])
        }
    }

    /// The application's messages with these ids as reports find them, by id.
    func reported(applicationKey: String, ids: [String]) throws -> [String: ReportedMessage] {
        var found: [String: ReportedMessage] = [:]
        for chunk in SQLBatch.chunks(ids) {
            for row in try db.rows("""
                SELECT id, bulkId, address, price, currency, reason, status, outbox, nextCheckAt FROM sent
                WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))
                """, [applicationKey] + Array(chunk)) {
                found[row["id"]] = ReportedMessage(bulkId: row["bulkId"], address: row["address"], price: row["price"],
                                                   currency: row["currency"], reason: row["reason"], status: row["status"],
                                                   outbox: row["outbox"], nextCheckAt: row["nextCheckAt"])
            }
        }
        return found
    }

    /// Stores what reports left of the application's messages (handed over: outbox 0), at `at`; one statement per
    /// chunk. The casts give PostgreSQL the types of a VALUES list's NULLs.
    func store(_ updates: [ReportedUpdate], applicationKey: String, at: Int64) throws {
        for chunk in SQLBatch.chunks(updates) {
            try db.execute("""
                UPDATE sent SET status = CAST(v.column2 AS TEXT), statusAt = ?, nextCheckAt = CAST(v.column3 AS BIGINT),
                    outbox = 0, price = CAST(v.column4 AS DOUBLE PRECISION), currency = CAST(v.column5 AS TEXT),
                    reason = CAST(v.column6 AS TEXT), permanentFailure = CAST(v.column7 AS BIGINT)
                FROM (VALUES \(SQLBatch.values(chunk.count, columns: 7))) AS v
                WHERE sent.applicationKey = ? AND sent.id = v.column1
                """, [at] + chunk.flatMap { u -> SQLArguments in
                    [u.messageId, u.status.rawValue, u.nextCheckAt, u.price, u.currency, u.reason, u.permanent]
                } + [applicationKey])
        }
    }

    /// Puts a bulk's accepted messages back in the outbox (1), or claimed with a lease run out (2).
    func reset(bulkId: String, toOutbox outbox: Int) throws {
        try db.execute("UPDATE sent SET outbox = ?, nextCheckAt = ? WHERE bulkId = ? AND accepted = 1",
                       [outbox, outbox == 2 ? Int64(0) : nil, bulkId])
    }

    // MARK: - Email

    /// Whether an email waits to be handed over or answered for by `at`: new, held and due, or claimed by a hand-over
    /// whose lease ran out.
    func mailWaiting(at: Int64, bulkId: String?) throws -> Bool {
        try !db.rows("""
            SELECT 1 FROM sent WHERE outbox > 0 AND channel = 'email' \(bulkId == nil ? "" : "AND bulkId = ?")
              AND (outbox = 1 OR (outbox = 2 AND COALESCE(nextCheckAt, 0) <= ?) OR (outbox = 3 AND notBefore <= ?)) LIMIT 1
            """, (bulkId.map { [$0] } ?? []) + [at, at]).isEmpty
    }

    /// Emails whose hand-over lease ran out by `at` (up to `limit`).
    func interruptedMail(at: Int64, bulkId: String?, limit: Int) throws -> [PlatformEngine.ClaimedMail] {
        try mails("s.outbox = 2 AND COALESCE(s.nextCheckAt, 0) <= ?", [at], bulkId: bulkId, limit: limit)
    }

    /// Claims the next new email until `lease`; nil when none waits.
    func claimMail(bulkId: String?, lease: Int64) throws -> PlatformEngine.ClaimedMail? {
        guard let next = try mails("s.outbox = 1", [], bulkId: bulkId, limit: 1).first else { return nil }
        try db.execute("UPDATE sent SET outbox = 2, nextCheckAt = ? WHERE applicationKey = ? AND id = ?",
                       [lease, next.applicationKey, next.messageId])
        return next
    }

    private func mails(_ condition: String, _ arguments: SQLArguments, bulkId: String?, limit: Int) throws -> [PlatformEngine.ClaimedMail] {
        try db.rows("""
            SELECT s.applicationKey, s.id, s.address, s.text, s.sentAt, b.sender, b.subject
            FROM sent s JOIN bulk b ON b.id = s.bulkId
            WHERE s.channel = 'email' AND \(condition) \(bulkId == nil ? "" : "AND s.bulkId = ?") LIMIT ?
            """, arguments + (bulkId.map { [$0] } ?? []) + [limit]).map { row in
            PlatformEngine.ClaimedMail(applicationKey: row["applicationKey"], messageId: row["id"], from: row["sender"],
                                       to: row["address"], subject: (row["subject"] as String?) ?? "", text: row["text"] ?? "",
                                       acceptedAt: Date(epochMilliseconds: row["sentAt"]))
        }
    }
}
