import Foundation
import HeraldAPI
import HeraldCore

/// What one pass of carrier work did.
public struct CarrierPass: Sendable, Hashable {
    /// Messages handed from the outbox to the carrier.
    public var handed = 0
    /// Stored statuses that changed.
    public var changed = 0
    /// When the next report is due; nil when nothing waits for one.
    public var nextDueAt: Date?
}

extension PlatformEngine {
    static let carrierBatch = 1000

    /// One pass of the carrier's work: hands committed messages to the carrier, then stores every report due now.
    /// Several processes may run it on one database: each row is updated only from the state it was read in.
    public func runCarrierPass() async throws -> CarrierPass {
        var pass = CarrierPass()
        pass.handed = try await drainOutbox(bulkId: nil)
        pass.changed = try await collectQueuedReports()
        pass.changed += try await collectReports(bulkId: nil)
        await collectReplies()
        pass.nextDueAt = try await nextReportDue()
        return pass
    }

    /// When the earliest report is due or the earliest held message is released (one read); nil when nothing waits.
    func nextReportDue() async throws -> Date? {
        try await store.read { db in
            try db.value(Int64.self, """
                SELECT MIN(due) FROM (
                    SELECT MIN(nextCheckAt) AS due FROM sent WHERE nextCheckAt IS NOT NULL AND outbox = 0
                    UNION ALL SELECT MIN(notBefore) AS due FROM sent WHERE outbox = 3) AS next
                """).map(Date.init(epochMilliseconds:))
        }
    }

    /// Hands messages committed to the outbox to the carrier and stores its first reports. Messages are claimed
    /// first (outbox 2, with a lease in `nextCheckAt`), so another process leaves them alone while the carrier
    /// answers; a claim whose lease ran out (the process died) is handed over again marked `mayHaveBeenSent`.
    @discardableResult
    func drainOutbox(bulkId: String?) async throws -> Int {
        var handed = try await drainMail(bulkId: bulkId)
        while true {
            let claimed = try await claimOutbox(bulkId: bulkId)
            guard !claimed.isEmpty else { return handed }
            for (app, group) in Dictionary(grouping: claimed, by: { $0.applicationKey }) {
                // A message refused for good comes back `rejected` with the carrier's reason; one the carrier
                // did not answer for stays claimed and is handed over again when its lease runs out.
                let reports = try await carrier.submit(group.map(\.message), at: now)
                _ = try await storeReports(reports, applicationKey: app, from: .outbox)
                handed += reports.count
            }
            if claimed.count < Self.carrierBatch { return handed }
        }
    }

    private struct Claimed: Sendable {
        var applicationKey: String
        var message: OutboundSMS
    }

    /// Claims up to a batch of outbox messages in one unit of work: new ones, and claims whose lease ran out.
    private func claimOutbox(bulkId: String?) async throws -> [Claimed] {
        let at = nowMs
        let lease = at + Int64(carrier.handOverLease * 1000)
        return try await store.write { db -> [Claimed] in
            try db.holds.releaseDue(at: at)
            let rows = try db.rows("""
                SELECT s.applicationKey, s.id, s.bulkId, s.address, s.text, s.sentAt, s.outbox, s.notBefore, b.sender
                FROM sent s JOIN bulk b ON b.id = s.bulkId
                WHERE s.channel = 'sms' AND (s.outbox = 1 OR (s.outbox = 2 AND COALESCE(s.nextCheckAt, 0) <= ?))
                  \(bulkId == nil ? "" : "AND s.bulkId = ?") LIMIT ?
                """, [at] + (bulkId.map { [$0] } ?? []) + [Self.carrierBatch])
            for (app, group) in Dictionary(grouping: rows, by: { $0["applicationKey"] as String }) {
                for chunk in SQLBatch.chunks(group) {
                    try db.execute("""
                        UPDATE sent SET outbox = 2, nextCheckAt = ? WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))
                        """, [lease, app] + chunk.map { $0["id"] as String })
                }
            }
            return rows.map { row in
                let outbox: Int = row["outbox"]
                return Claimed(applicationKey: row["applicationKey"], message: OutboundSMS(
                    messageId: row["id"], bulkId: row["bulkId"], address: row["address"], sender: row["sender"],
                    text: row["text"] ?? "", acceptedAt: Date(epochMilliseconds: row["sentAt"]), mayHaveBeenSent: outbox == 2,
                    sendAt: (row["notBefore"] as Int64?).flatMap { $0 > at ? Date(epochMilliseconds: $0) : nil }))
            }
        }
    }

    /// Asks the carrier about messages whose report is due and stores what changed; an event per bulk tells of it.
    @discardableResult
    func collectReports(bulkId: String?) async throws -> Int {
        var changed = 0
        let dueBy = nowMs
        var after: (Int64, String) = (Int64.min, "")
        while true {
            let arguments: SQLArguments = [dueBy] + (bulkId.map { [$0] } ?? []) + [after.0, after.1, Self.carrierBatch]
            let rows = try await store.read { db in
                try db.rows("""
                    SELECT applicationKey, id, bulkId, sentAt, status, nextCheckAt FROM sent
                    WHERE nextCheckAt IS NOT NULL AND outbox = 0 AND nextCheckAt <= ? \(bulkId == nil ? "" : "AND bulkId = ?")
                      AND (nextCheckAt, id) > (?, ?)
                    ORDER BY nextCheckAt, id LIMIT ?
                    """, arguments)
            }
            guard let last = rows.last else { return changed }
            after = (last["nextCheckAt"], last["id"])
            for (app, group) in Dictionary(grouping: rows, by: { $0["applicationKey"] as String }) {
                let inFlight = group.map { row in
                    InFlightSMS(messageId: row["id"], bulkId: row["bulkId"], acceptedAt: Date(epochMilliseconds: row["sentAt"]),
                                status: DeliveryStatus(parsing: row["status"]))
                }
                let reports = try await carrier.reports(inFlight, at: now)
                changed += try await storeReports(reports, applicationKey: app, from: .due)
            }
            if rows.count < Self.carrierBatch { return changed }
        }
    }

    /// Where a report comes from, which says which rows it may change.
    enum ReportSource {
        /// The answer to a hand-over: rows still claimed for it.
        case outbox
        /// An ask for reports due: rows handed over and not final.
        case due
        /// Pushed or queued by the carrier on its own: rows handed over and not final, and rows whose hand-over
        /// answer is still awaited (a report may come before it). A final status is never changed, so a report that
        /// comes twice, or late, counts once.
        case carrier
    }

    /// Stores carrier reports of one application; rows that moved on meanwhile (another process stored a
    /// report first) are left alone. Writes one `deliveryChanged` event per bulk whose statuses changed.
    /// Answers how many statuses changed.
    func storeReports(_ reports: [CarrierReport], applicationKey: String, from source: ReportSource) async throws -> Int {
        guard !reports.isEmpty else { return 0 }
        let at = nowMs
        let changed = try await store.write { [self] db -> Int in
            var changes: [String: [DeliveryInfo]] = [:]
            var current: [String: SQLRow] = [:]
            for chunk in SQLBatch.chunks(reports) {
                for row in try db.rows("""
                    SELECT id, bulkId, address, price, currency, reason, status, outbox, nextCheckAt FROM sent
                    WHERE applicationKey = ? AND id IN (\(SQLBatch.list(chunk.count)))
                    """, [applicationKey] + chunk.map(\.messageId)) {
                    current[row["id"]] = row
                }
            }
            // Each row as the report leaves it: (id, status, nextCheckAt, price, currency, reason, permanent).
            var updates: [SQLArguments] = []
            for report in reports {
                guard let row = current[report.messageId] else { continue }
                let outbox: Int = row["outbox"]
                let final = outbox == 0 && row["nextCheckAt"] as Int64? == nil
                switch source {
                case .outbox: guard outbox == 1 || outbox == 2 else { continue }   // never a held one (3)
                case .due: guard outbox == 0, !final else { continue }
                case .carrier: guard outbox == 2 || (outbox == 0 && !final) else { continue }
                }
                let price: Double = report.price ?? row["price"]
                let currency: String? = report.currency ?? (row["currency"] as String?)
                let reason: String? = report.reason ?? (row["reason"] as String?)
                updates.append([report.messageId, report.status.rawValue, report.nextCheckAt?.epochMilliseconds, price, currency,
                                reason, report.permanent])
                if report.status.rawValue != row["status"] as String || price != row["price"] as Double {
                    let bulkId: String = row["bulkId"]
                    changes[bulkId, default: []].append(DeliveryInfo(
                        address: row["address"], messageId: report.messageId, clientCorrelator: bulkId,
                        deliveryStatus: report.status, price: price, currency: currency,
                        reason: report.status.isImpossible || report.status == .deliveryUncertain ? reason : nil, permanent: report.permanent ? true : nil))
                }
            }
            // One statement per chunk; the casts give PostgreSQL the types of a VALUES list's NULLs.
            for chunk in SQLBatch.chunks(updates) {
                try db.execute("""
                    UPDATE sent SET status = CAST(v.column2 AS TEXT), statusAt = ?, nextCheckAt = CAST(v.column3 AS BIGINT),
                        outbox = 0, price = CAST(v.column4 AS DOUBLE PRECISION), currency = CAST(v.column5 AS TEXT),
                        reason = CAST(v.column6 AS TEXT), permanentFailure = CAST(v.column7 AS BIGINT)
                    FROM (VALUES \(SQLBatch.values(chunk.count, columns: 7))) AS v
                    WHERE sent.applicationKey = ? AND sent.id = v.column1
                    """, [at] + chunk.flatMap { $0 } + [applicationKey])
            }
            for (bulkId, infos) in changes.sorted(by: { $0.key < $1.key }) {
                try appendEvent(db, applicationKey: applicationKey,
                                .deliveryChanged(bulkId: bulkId, deliveryInfo: infos, isDelta: true))
            }
            return changes.values.reduce(0) { $0 + $1.count }
        }
        if changed > 0 { bell.ring() }
        return changed
    }
}

extension PlatformEngine {
    /// Puts a bulk's messages back in the outbox, as a crash between commit and hand-over leaves them (tests).
    func markInOutbox(bulkId: String) async throws {
        try await store.write { db in
            try db.execute("UPDATE sent SET outbox = 1, nextCheckAt = NULL WHERE bulkId = ? AND accepted = 1", [bulkId])
        }
    }

    /// Leaves a bulk's messages as a process that died while the carrier answered leaves them: claimed, the
    /// lease run out (tests).
    func markHandedWithoutAnswer(bulkId: String) async throws {
        try await store.write { db in
            try db.execute("UPDATE sent SET outbox = 2, nextCheckAt = 0 WHERE bulkId = ? AND accepted = 1", [bulkId])
        }
    }
}
