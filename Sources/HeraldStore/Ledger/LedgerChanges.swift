import Foundation
import GRDB
import HeraldCore

/// Where the local store stands: the ledger's change counter and the contacts' generation. Two
/// integers, read together in one cheap query; when neither moved, nothing needs reading again.
public struct StoreVersion: Sendable, Hashable {
    public let ledger: Int64
    public let contacts: Int64

    public init(ledger: Int64, contacts: Int64) {
        self.ledger = ledger
        self.contacts = contacts
    }
}

/// What the ledger changed after a sequence number: the rows inserted or updated (by any process),
/// each in its present state, oldest change first.
public struct LedgerDelta: Sendable, Hashable {
    /// The sequence number the delta reaches; ask for changes since this one next.
    public let sequence: Int64
    public let invitations: [InvitationInfo]
    public let bulks: [BulkRecord]
    /// True when more changes wait beyond `sequence` (the delta was cut at its limit).
    public let hasMore: Bool
}

/// The rows of the ledger that can still change, as of one change sequence.
public struct OpenRows: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public let status: DeliveryStatus
        public let bulkId: String?

        public init(status: DeliveryStatus, bulkId: String?) {
            self.status = status
            self.bulkId = bulkId
        }
    }
    public let sequence: Int64
    /// Rows with a higher id were inserted later.
    public let maxInvitationId: Int64
    public let rows: [Int64: Row]
}

extension LedgerStore {
    /// The ledger's change counter and the contacts' generation, in one read.
    public func version() throws -> StoreVersion {
        try database.read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT seq FROM ledger_clock WHERE id = 1),
                       (SELECT value FROM store_meta WHERE key = 'contacts_generation')
                """)
            return StoreVersion(ledger: row?[0] ?? 0, contacts: row?[1] ?? 0)
        }
    }

    /// Rows the ledger inserted or changed after `sequence`, at most `limit` invitations per call.
    public func changes(since sequence: Int64, limit: Int = 5_000) throws -> LedgerDelta {
        try database.read { db in
            let head: Int64 = try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_clock WHERE id = 1") ?? 0
            guard head > sequence else { return LedgerDelta(sequence: sequence, invitations: [], bulks: [], hasMore: false) }
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.columns), change_seq FROM invitation WHERE change_seq > ? ORDER BY change_seq LIMIT ?
                """, arguments: [sequence, limit + 1])
            let hasMore = rows.count > limit
            let kept = rows.prefix(limit)
            // A cut delta reaches the last invitation it holds; bulks up to the same point.
            let reached: Int64 = hasMore ? (kept.last?["change_seq"] ?? sequence) : head
            let bulks = try Row.fetchAll(db, sql: """
                SELECT * FROM bulk WHERE change_seq > ? AND change_seq <= ? ORDER BY change_seq
                """, arguments: [sequence, reached]).map(Self.bulk)
            return LedgerDelta(sequence: reached, invitations: kept.map(Self.invitation), bulks: bulks, hasMore: hasMore)
        }
    }

    /// Every bulk, newest first, with its recipients counted per status (one grouped query over the
    /// (bulk, status) index), and the change sequence the counts stand at, read together.
    public func bulkCounts() throws -> BulkCountsSnapshot {
        try database.read { db in
            let sequence: Int64 = try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_clock WHERE id = 1") ?? 0
            let records = try Row.fetchAll(db, sql: "SELECT * FROM bulk ORDER BY created_ms DESC, bulk_id").map(Self.bulk)
            var counts: [String: [DeliveryStatus: Int]] = [:]
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT bulk_id, status, COUNT(*) FROM invitation WHERE bulk_id IS NOT NULL GROUP BY bulk_id, status
                """)
            while let row = try cursor.next() {
                let bulkId: String = row[0]
                counts[bulkId, default: [:]][DeliveryStatus(parsing: row[1]), default: 0] += row[2] as Int
            }
            return BulkCountsSnapshot(sequence: sequence,
                                      bulks: records.map { BulkCounts(record: $0, counts: counts[$0.bulkId] ?? [:]) })
        }
    }

    /// The bulk and status of every row that can still change (not in a final state), and the
    /// sequence and highest row id they stand at: where a change feed starts.
    public func openRows() throws -> OpenRows {
        let finals = DeliveryStatus.allCases.filter(\.isFinal).map { "'\($0.rawValue)'" }.joined(separator: ",")
        return try database.read { db in
            let sequence: Int64 = try Int64.fetchOne(db, sql: "SELECT seq FROM ledger_clock WHERE id = 1") ?? 0
            let maxId: Int64 = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM invitation") ?? 0
            var rows: [Int64: OpenRows.Row] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, status, bulk_id FROM invitation WHERE status NOT IN (\(finals))")
            while let row = try cursor.next() {
                rows[row[0]] = OpenRows.Row(status: DeliveryStatus(parsing: row[1]), bulkId: row[2])
            }
            return OpenRows(sequence: sequence, maxInvitationId: maxId, rows: rows)
        }
    }

    /// The latest status of every number ever invited: one pass over the ledger (what ranking all
    /// the people of a book needs, instead of one query per number).
    public func latestStatusOfEveryNumber() throws -> [String: DeliveryStatus] {
        try database.read { db in
            var latest: [String: (created: Int64, id: Int64, status: String)] = [:]
            let cursor = try Row.fetchCursor(db, sql: "SELECT msisdn, created_ms, id, status FROM invitation")
            while let row = try cursor.next() {
                let number: String = row[0], created: Int64 = row[1], id: Int64 = row[2]
                if let known = latest[number], (known.created, known.id) > (created, id) { continue }
                latest[number] = (created, id, row[3])
            }
            return latest.mapValues { DeliveryStatus(parsing: $0.status) }
        }
    }

    /// The invitation summary of each person, from one query over the page's ids and numbers.
    public func summaries(for people: [Person]) throws -> [PersonInvitationSummary] {
        try database.read { db in try Self.summaries(for: people, db: db) }
    }

    /// `summaries(for:)` inside a read of the caller's (a query per 400 people).
    static func summaries(for people: [Person], db: Database) throws -> [PersonInvitationSummary] {
        if people.count > 400 {
            return try stride(from: 0, to: people.count, by: 400).flatMap {
                try summaries(for: Array(people[$0..<min(people.count, $0 + 400)]), db: db)
            }
        }
        let ids = people.compactMap(\.id)
        let numbers = Array(Set(people.flatMap(\.distinctNumbers)))
        guard !ids.isEmpty || !numbers.isEmpty else { return people.map { PersonInvitationSummary(person: $0, invitations: []) } }
        // Lists padded with NULLs (which match nothing) to a few sizes, so the statements are prepared once.
        let idMarks = PersonRows.paddedCount(ids.count), numberMarks = PersonRows.paddedCount(numbers.count)
        var args: [DatabaseValue] = ids.map(\.databaseValue)
        args += repeatElement(.null, count: idMarks - ids.count)
        args += numbers.map(\.databaseValue)
        args += repeatElement(.null, count: numberMarks - numbers.count)
        let sql = "SELECT \(Self.columns) FROM invitation WHERE person_id IN (\(PersonRows.marks(idMarks))) "
            + "OR msisdn IN (\(PersonRows.marks(numberMarks)))"
        let statement = idMarks <= 512 && numberMarks <= 512 ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let rows = try Row.fetchAll(statement, arguments: StatementArguments(args)).map(Self.invitation)
        var byPerson: [Int64: [InvitationInfo]] = [:], byNumber: [String: [InvitationInfo]] = [:]
        for inv in rows {
            if let p = inv.personId { byPerson[p, default: []].append(inv) }
            byNumber[inv.msisdn, default: []].append(inv)
        }
        return people.map { person in
            var mine: [Int64: InvitationInfo] = [:]
            for inv in person.id.flatMap({ byPerson[$0] }) ?? [] { if let id = inv.id { mine[id] = inv } }
            for number in person.distinctNumbers {
                for inv in byNumber[number] ?? [] { if let id = inv.id { mine[id] = inv } }
            }
            return PersonInvitationSummary(person: person, invitations: Array(mine.values))
        }
    }
}
