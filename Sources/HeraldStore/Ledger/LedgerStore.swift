import Foundation
import GRDB
import HeraldCore

/// The invitation ledger: every recipient is written as `queued` before the platform is called,
/// then gets the platform's bulkId/messageId/status, or is marked failed with a reason. Rows are
/// never deleted.
public struct LedgerStore: Sendable {
    public let database: HeraldDatabase
    let clock: any HeraldClock
    /// Who sends this workspace's bulks (its sender name, else the login name): written to each bulk it records.
    public let sentBy: String?

    public init(database: HeraldDatabase, clock: any HeraldClock = SystemClock(), sentBy: String? = nil) {
        self.database = database
        self.clock = clock
        self.sentBy = sentBy
    }

    static let columns = """
        id, msisdn, person_id, bulk_id, message_id, correlator, status, created_ms, updated_ms, attempts, error, price, currency, permanent,
        text, clicks
        """

    /// An invitation from a row whose first columns are `columns`, in that order (read by position:
    /// a look-up by name costs more than the rest of the decoding).
    static func invitation(_ row: Row) -> InvitationInfo {
        let created: Int64 = row[7]
        let updated: Int64 = row[8]
        return InvitationInfo(id: row[0], msisdn: row[1], personId: row[2], bulkId: row[3],
                              messageId: row[4], correlator: row[5],
                              status: DeliveryStatus(parsing: row[6]),
                              createdAt: Date(epochMilliseconds: created), updatedAt: Date(epochMilliseconds: updated),
                              attempts: row[9], error: row[10], price: row[11], currency: row[12],
                              permanentFailure: row[13], text: row[14], clicks: row[15])
    }

    static func bulk(_ row: Row) -> BulkRecord {
        let created: Int64 = row["created_ms"]
        let next: Int64? = row["next_poll_ms"]
        let last: Int64? = row["last_polled_ms"]
        var record = BulkRecord(bulkId: row["bulk_id"], createdAt: Date(epochMilliseconds: created),
                                messageKey: row["message_key"], messageText: row["message_text"], sender: row["sender"],
                                recipientCount: row["recipient_count"], passesDone: row["passes_done"],
                                nextPollAt: next.map { Date(epochMilliseconds: $0) },
                                lastPolledAt: last.map { Date(epochMilliseconds: $0) },
                                sentHere: (row["sent_here"] as Bool?) ?? true, resendOf: row["resend_of"],
                                sendAt: (row["send_at_ms"] as Int64?).map(Date.init(epochMilliseconds:)))
        // Read where the query selected them (`SELECT *` does; narrower bulk queries leave them nil).
        if row.hasColumn("estimate") { record.estimate = row["estimate"] }
        if row.hasColumn("estimate_currency") { record.estimateCurrency = row["estimate_currency"] }
        return record
    }

    /// Stores recipients of a colleague's bulk (from a Herald server's events): the bulk, marked as not sent
    /// here, and each messageId not held yet, with what the carrier said of it (price, reason). `sentBy` names who
    /// sent it (the server key's name), when known. Answers how many recipients were added.
    @discardableResult
    public func recordTeamBulk(bulkId: String, createdAt: Date, messageText: String? = nil, sentBy: String? = nil,
                               _ recipients: [DeliveryUpdate]) throws -> Int {
        let now = clock.now().epochMilliseconds
        return try database.write { db in
            // This workspace's own send, announced before its answer was recorded: the send records it.
            for r in recipients {
                guard let messageId = r.messageId else { continue }
                if try Row.fetchOne(db, sql: "SELECT 1 FROM invitation WHERE correlator = ?", arguments: [messageId]) != nil { return 0 }
            }
            try db.execute(sql: """
                INSERT OR IGNORE INTO bulk (bulk_id, created_ms, recipient_count, sent_here, message_text, sent_by)
                VALUES (?, ?, 0, 0, ?, ?)
                """, arguments: [bulkId, createdAt.epochMilliseconds, messageText, sentBy])
            if let sentBy {
                try db.execute(sql: "UPDATE bulk SET sent_by = ? WHERE bulk_id = ? AND sent_by IS NULL", arguments: [sentBy, bulkId])
            }
            if let messageText {
                try db.execute(sql: "UPDATE bulk SET message_text = ? WHERE bulk_id = ? AND message_text IS NULL",
                               arguments: [messageText, bulkId])
            }
            // A colleague's held bulk says when it leaves, as one of this workspace's does.
            if let sendAt = recipients.compactMap(\.sendAt).min() {
                try db.execute(sql: "UPDATE bulk SET send_at_ms = ? WHERE bulk_id = ? AND send_at_ms IS NULL",
                               arguments: [sendAt.epochMilliseconds, bulkId])
            }
            var added = 0
            var countries = LedgerCountries.Memo()
            for r in recipients {
                guard let messageId = r.messageId else { continue }
                if try Row.fetchOne(db, sql: "SELECT 1 FROM invitation WHERE message_id = ?", arguments: [messageId]) != nil { continue }
                try db.execute(sql: "UPDATE invitation SET superseded = 1 WHERE msisdn = ? AND superseded = 0", arguments: [r.e164])
                try db.execute(sql: """
                    INSERT INTO invitation (msisdn, bulk_id, message_id, correlator, status, created_ms, updated_ms,
                                            price, currency, error, permanent, country)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [r.e164, bulkId, messageId, "team-" + messageId, r.status.rawValue, now, now,
                                     r.price, r.currency, r.reason, r.permanent ?? false, countries.country(of: r.e164)])
                added += 1
            }
            if added > 0 {
                try db.execute(sql: """
                    UPDATE bulk SET recipient_count = (SELECT COUNT(*) FROM invitation WHERE bulk_id = ?) WHERE bulk_id = ?
                    """, arguments: [bulkId, bulkId])
            }
            return added
        }
    }

    // MARK: sending

    /// Writes every recipient as `queued` in one transaction; nothing is written when a correlator is
    /// already used. `attempts` counts earlier invitations to the same number plus this one.
    /// Not journaled: senders use `claim`, which queues and journals in one transaction.
    @discardableResult
    func enqueue(_ recipients: [QueuedRecipient]) throws -> [InvitationInfo] {
        let now = clock.now().epochMilliseconds
        return try database.write { db in try Self.insertQueued(db, recipients, now: now) }
    }

    @discardableResult
    static func insertQueued(_ db: Database, _ recipients: [QueuedRecipient], now: Int64) throws -> [InvitationInfo] {
        var out: [InvitationInfo] = []
        let used = try db.cachedStatement(sql: "SELECT 1 FROM invitation WHERE correlator = ?")
        let earlierCount = try db.cachedStatement(sql: "SELECT COUNT(*) FROM invitation WHERE msisdn = ?")
        let supersede = try db.cachedStatement(sql: "UPDATE invitation SET superseded = 1 WHERE msisdn = ? AND superseded = 0")
        let insert = try db.cachedStatement(sql: """
            INSERT INTO invitation (msisdn, person_id, correlator, status, created_ms, updated_ms, attempts, country)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        var countries = LedgerCountries.Memo()
        for r in recipients {
            if try Bool.fetchOne(used, arguments: [r.correlator]) != nil {
                throw LedgerError.duplicateCorrelator(r.correlator)
            }
            let earlier = try Int.fetchOne(earlierCount, arguments: [r.msisdn]) ?? 0
            var info = InvitationInfo(msisdn: r.msisdn, personId: r.personId, correlator: r.correlator,
                                      status: .queued, createdAt: Date(epochMilliseconds: now),
                                      updatedAt: Date(epochMilliseconds: now), attempts: earlier + 1)
            try supersede.execute(arguments: [r.msisdn])
            try insert.execute(arguments: [r.msisdn, r.personId, r.correlator, DeliveryStatus.queued.rawValue,
                                           now, now, info.attempts, countries.country(of: r.msisdn)])
            info.id = db.lastInsertedRowID
            out.append(info)
        }
        return out
    }

    /// Records the platform's answer: stores the bulk and gives each queued row its bulkId,
    /// messageId and status, and forgets the journaled send `completing`, in one transaction.
    public func recordSent(bulk: BulkRecord, outcomes: [SendOutcome], completing sendId: String? = nil) throws {
        let now = clock.now().epochMilliseconds
        try database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO bulk (bulk_id, created_ms, message_key, message_text, sender, recipient_count,
                                             passes_done, next_poll_ms, last_polled_ms, resend_of, send_at_ms, sent_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [bulk.bulkId, bulk.createdAt.epochMilliseconds, bulk.messageKey, bulk.messageText,
                                 bulk.sender, bulk.recipientCount, bulk.passesDone,
                                 bulk.nextPollAt?.epochMilliseconds, bulk.lastPolledAt?.epochMilliseconds, bulk.resendOf,
                                 bulk.sendAt?.epochMilliseconds, sentBy])
            for o in outcomes {
                try db.execute(sql: """
                    UPDATE invitation SET bulk_id = ?, message_id = ?, status = ?, error = ?, updated_ms = ?, text = COALESCE(?, text)
                    WHERE correlator = ?
                    """, arguments: [bulk.bulkId, o.messageId, o.status.rawValue, o.error, now, o.text, o.correlator])
                if db.changesCount == 0 { throw LedgerError.unknownCorrelator(o.correlator) }
            }
            if let sendId { try db.execute(sql: "DELETE FROM pending_send WHERE id = ?", arguments: [sendId]) }
        }
    }

    /// Marks rows still `queued` failed (`sendFailed` by default, or `rejected`) with the reason, and
    /// forgets the journaled send `completing`, in one transaction; never deletes rows.
    public func markFailed(correlators: [String], reason: String, status: DeliveryStatus = .sendFailed,
                           completing sendId: String? = nil) throws {
        let now = clock.now().epochMilliseconds
        try database.write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE invitation SET status = ?, error = ?, updated_ms = ? WHERE correlator = ? AND status = ?
                """)
            for c in correlators {
                try update.execute(arguments: [status.rawValue, reason, now, c, DeliveryStatus.queued.rawValue])
            }
            if let sendId { try db.execute(sql: "DELETE FROM pending_send WHERE id = ?", arguments: [sendId]) }
        }
    }

    /// Rows still `queued`, oldest first: to reconcile with the platform on start.
    public func queuedInvitations() throws -> [InvitationInfo] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM invitation WHERE status = ? ORDER BY created_ms, id",
                             arguments: [DeliveryStatus.queued.rawValue]).map(Self.invitation)
        }
    }

    /// How many rows wait `queued` (not yet answered by the platform).
    public func queuedCount() throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invitation WHERE status = ?", arguments: [DeliveryStatus.queued.rawValue]) ?? 0
        }
    }

    /// The invitation with this correlator.
    public func invitation(correlator: String) throws -> InvitationInfo? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM invitation WHERE correlator = ?",
                             arguments: [correlator]).map(Self.invitation)
        }
    }

    // MARK: bulks and polling

    public func bulk(id: String) throws -> BulkRecord? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM bulk WHERE bulk_id = ?", arguments: [id]).map(Self.bulk)
        }
    }

    /// Every bulk, newest first.
    public func bulks(limit: Int? = nil) throws -> [BulkRecord] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM bulk ORDER BY created_ms DESC, bulk_id LIMIT ?",
                             arguments: [limit ?? -1]).map(Self.bulk)
        }
    }

    /// Bulks with at least one recipient not in a final state, soonest next poll first.
    public func bulksWithPendingRecipients() throws -> [BulkRecord] {
        let finals = DeliveryStatus.allCases.filter(\.isFinal).map { "'\($0.rawValue)'" }.joined(separator: ",")
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM bulk b WHERE EXISTS (
                    SELECT 1 FROM invitation i WHERE i.bulk_id = b.bulk_id AND i.status NOT IN (\(finals)))
                ORDER BY COALESCE(b.next_poll_ms, 0), b.created_ms
                """).map(Self.bulk)
        }
    }

    /// The recipients of a bulk, in the order they were queued.
    public func recipients(ofBulk bulkId: String) throws -> [InvitationInfo] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM invitation WHERE bulk_id = ? ORDER BY id",
                             arguments: [bulkId]).map(Self.invitation)
        }
    }

    /// Invitations this workspace sent under `sender` since `since` that were not refused, failed or taken back (what
    /// a daily cap counts; a colleague's bulks learnt from a server carry no sender and do not count).
    public func invitationsSent(sender: String, since: Date) throws -> Int {
        let uncounted = [DeliveryStatus.rejected, .sendFailed, .cancelled].map(\.rawValue)
        return try database.read { db in
            try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM invitation i JOIN bulk b ON b.bulk_id = i.bulk_id
                WHERE b.sender = ? AND i.created_ms >= ? AND i.status NOT IN (?, ?, ?)
                """, arguments: StatementArguments([sender, since.epochMilliseconds] as [any DatabaseValueConvertible])
                    + StatementArguments(uncounted)) ?? 0
        }
    }

    /// Sets when a held bulk leaves (moved), and its next poll to just after.
    public func reschedule(bulkId: String, sendAt: Date, nextPollAt: Date) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE bulk SET send_at_ms = ?, next_poll_ms = ? WHERE bulk_id = ?",
                           arguments: [sendAt.epochMilliseconds, nextPollAt.epochMilliseconds, bulkId])
            if db.changesCount == 0 { throw LedgerError.unknownBulk(bulkId) }
        }
    }

    /// Records one polling pass of a bulk: counts it, stamps it, and sets the next poll time (nil: no more).
    public func recordPoll(bulkId: String, nextPollAt: Date?) throws {
        let now = clock.now().epochMilliseconds
        try database.write { db in
            try db.execute(sql: """
                UPDATE bulk SET passes_done = passes_done + 1, last_polled_ms = ?, next_poll_ms = ? WHERE bulk_id = ?
                """, arguments: [now, nextPollAt?.epochMilliseconds, bulkId])
            if db.changesCount == 0 { throw LedgerError.unknownBulk(bulkId) }
        }
    }

    /// Applies delivery infos of one bulk; returns what changed (from → to). A row already in a
    /// final state keeps it; an info that matches no row is ignored.
    public func applyDeliveryInfos(bulkId: String, _ updates: [DeliveryUpdate]) throws -> [StatusChange] {
        let now = clock.now().epochMilliseconds
        return try database.write { db in
            var changes: [StatusChange] = []
            // A held bulk moved to another time (by this terminal or a colleague's).
            if let moved = updates.compactMap(\.sendAt).max() {
                try db.execute(sql: "UPDATE bulk SET send_at_ms = ? WHERE bulk_id = ? AND send_at_ms IS NOT ?",
                               arguments: [moved.epochMilliseconds, bulkId, moved.epochMilliseconds])
            }
            for u in updates {
                var row: Row?
                if let mid = u.messageId {
                    row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM invitation WHERE bulk_id = ? AND message_id = ?",
                                           arguments: [bulkId, mid])
                }
                if row == nil {
                    row = try Row.fetchOne(db, sql: """
                        SELECT \(Self.columns) FROM invitation WHERE bulk_id = ? AND msisdn = ? ORDER BY id DESC LIMIT 1
                        """, arguments: [bulkId, u.e164])
                }
                guard let row else { continue }
                let inv = Self.invitation(row)
                guard let id = inv.id else { continue }
                // What the carrier adds (price, why it failed) is kept even when the status stays.
                let price = u.price ?? inv.price
                let currency = u.currency ?? inv.currency
                let reason = u.reason ?? inv.error
                let permanent = u.permanent ?? inv.permanentFailure
                if price != inv.price || currency != inv.currency || reason != inv.error || permanent != inv.permanentFailure {
                    try db.execute(sql: "UPDATE invitation SET price = ?, currency = ?, error = ?, permanent = ? WHERE id = ?",
                                   arguments: [price, currency, reason, permanent, id])
                }
                // Clicks only grow (an older answer never lowers them).
                if let clicks = u.clicks, clicks > inv.clicks {
                    try db.execute(sql: "UPDATE invitation SET clicks = ? WHERE id = ?", arguments: [clicks, id])
                }
                guard inv.status != u.status, !inv.status.isFinal else { continue }
                try db.execute(sql: "UPDATE invitation SET status = ?, updated_ms = ? WHERE id = ?",
                               arguments: [u.status.rawValue, now, id])
                changes.append(StatusChange(invitationId: id, msisdn: inv.msisdn, personId: inv.personId,
                                            bulkId: bulkId, messageId: inv.messageId, from: inv.status, to: u.status))
            }
            return changes
        }
    }

    // MARK: per number and per person

    /// The most recent invitation to a number (E.164), nil when it was never invited.
    public func latestInvitation(msisdn: String) throws -> InvitationInfo? {
        try database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT \(Self.columns) FROM invitation WHERE msisdn = ? ORDER BY created_ms DESC, id DESC LIMIT 1
                """, arguments: [msisdn]).map(Self.invitation)
        }
    }

    /// Delivery status of the latest invitation to a number, nil when never invited.
    public func deliveryStatus(msisdn: String) throws -> DeliveryStatus? {
        try latestInvitation(msisdn: msisdn)?.status
    }

    /// Latest status for each of these numbers that was ever invited.
    /// The numbers whose latest invitation failed for good, as the carrier said (what `claim` leaves out unless resending).
    public func permanentFailures(msisdns: [String]) throws -> Set<String> {
        guard !msisdns.isEmpty else { return [] }
        return try database.read { db in try Self.permanentFailures(db, msisdns: msisdns) }
    }

    public func latestStatuses(msisdns: [String]) throws -> [String: DeliveryStatus] {
        guard !msisdns.isEmpty else { return [:] }
        return try database.read { db in try Self.latestStatuses(db, msisdns: msisdns) }
    }

    /// Every invitation of a person (by person id or to one of their numbers), oldest first.
    public func invitations(for person: Person) throws -> [InvitationInfo] {
        let numbers = person.distinctNumbers
        return try database.read { db in
            var sql = "SELECT \(Self.columns) FROM invitation WHERE person_id = ?"
            var args: [DatabaseValueConvertible?] = [person.id]
            if !numbers.isEmpty {
                sql += " OR msisdn IN (\(numbers.map { _ in "?" }.joined(separator: ",")))"
                args += numbers.map { $0 as DatabaseValueConvertible? }
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY created_ms, id",
                                    arguments: StatementArguments(args)).map(Self.invitation)
        }
    }

    /// The invitation history of a person id, oldest first.
    public func invitations(personId: Int64) throws -> [InvitationInfo] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM invitation WHERE person_id = ? ORDER BY created_ms, id",
                             arguments: [personId]).map(Self.invitation)
        }
    }

    /// The summary of a person's invitations over all their numbers.
    public func summary(for person: Person) throws -> PersonInvitationSummary {
        PersonInvitationSummary(person: person, invitations: try invitations(for: person))
    }

    /// The person's valid numbers that were never sent an invitation.
    public func numbersNotYetInvited(_ person: Person) throws -> [String] {
        try summary(for: person).notYetInvited
    }

    /// Every bulkId a person's invitations belong to, oldest first, no repeats.
    public func bulkIds(for person: Person) throws -> [String] {
        try summary(for: person).bulkIds
    }
}
