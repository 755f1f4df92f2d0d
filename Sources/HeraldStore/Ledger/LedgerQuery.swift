import Foundation
import GRDB
import HeraldCore

/// A recipient a Deliveries query matched: the ledger row, with the name, the bulk's sender ID, who sent it and the
/// bulk's text.
public struct LedgerMatch: Sendable, Hashable {
    public var invitation: InvitationInfo
    /// The person's name (by the row's person, else by a contact holding the number); nil when none is known.
    public var name: String?
    /// ISO region of the number; nil for an email or a number no region owns.
    public var country: String?
    /// The bulk's sender ID.
    public var sender: String?
    /// Who sent the bulk (a sender name or a server key's name); nil when not known.
    public var sentBy: String?
    /// The text as sent to this recipient, else the bulk's text.
    public var text: String?
}

/// A bulk with recipients a query matched, and how many.
public struct LedgerBulkMatch: Sendable, Hashable {
    public var bulkId: String
    public var createdAt: Date
    public var matched: Int
    public var recipientCount: Int
}

/// What a breakdown groups by.
public enum LedgerDimension: String, Sendable, Hashable, CaseIterable {
    /// The reason the carrier or the platform gave (the `error` column).
    case reason
    /// The ISO region of the number.
    case country
    /// The bulk's sender ID.
    case sender
}

/// One group of a breakdown: narrows a query to the rows whose dimension is exactly `key` (a reason without regard to
/// ASCII case; nil: the rows without one).
public struct LedgerGroup: Sendable, Hashable {
    public var dimension: LedgerDimension
    public var key: String?

    public init(dimension: LedgerDimension, key: String?) {
        self.dimension = dimension
        self.key = key
    }
}

/// Evaluates a `DeliveryQuery` as SQL over bulk ⨝ invitation (⟕ person): the recipients it matches, newest bulk
/// first, and the bulks they belong to. Rows still queued before the platform answered (no bulk yet) are not matched.
///
/// Word matching: names compare folded (case and accents ignored, as Contacts does); reasons, texts, sender IDs and
/// who sent compare case-insensitively for ASCII letters (SQLite's LIKE).
///
/// Speed: a query is a filter on `invitation` alone. What a term asks of a bulk (sender ID, who sent, its id, its
/// text) or of a person (the name) is asked once of those tables, as a set the rows are looked up in; counts per bulk
/// come from the indexes. A page is read from the bulks that hold it (their counts say which), so a page of 200 of
/// 40,000 matches reads about 200 rows.
extension LedgerStore {
    /// One page of the recipients `query` matches (within `group` when given): newest bulk first (as
    /// `matchingBulks`), newest recipient first within a bulk.
    public func matches(_ query: DeliveryQuery, group: LedgerGroup? = nil, limit: Int, offset: Int = 0) throws -> [LedgerMatch] {
        let filter = LedgerFilter(query, group: group)
        let limit = max(0, limit), offset = max(0, offset)
        guard limit > 0 else { return [] }
        return try database.read { db in
            // The bulks that hold positions offset..<offset+limit, and how many matches come before the first.
            let end = offset > Int.max - limit ? Int.max : offset + limit
            var before = 0, covered = 0
            var ids: [String] = []
            for bulk in try Self.matchingBulks(db, filter) {
                if ids.isEmpty, before + bulk.matched <= offset { before += bulk.matched; continue }
                ids.append(bulk.bulkId)
                covered += bulk.matched
                if before + covered >= end { break }
            }
            guard !ids.isEmpty else { return [] }
            // A page over very many bulks (an export-sized one) is read without the list (SQLite takes a bounded
            // number of arguments): the same rows in the same order, found by the filter alone.
            let some = ids.count <= 500
            let among = some ? " AND i.bulk_id IN (\(ids.map { _ in "?" }.joined(separator: ",")))" : ""
            let skip = some ? offset - before : offset
            return try Row.fetchAll(db, sql: """
                SELECT \(LedgerFilter.matchColumns) FROM \(LedgerFilter.joined)
                WHERE \(filter.sql)\(among)
                ORDER BY b.created_ms DESC, b.bulk_id, i.id DESC LIMIT ? OFFSET ?
                """, arguments: filter.arguments + (some ? StatementArguments(ids) : []) + [limit, skip]).map(LedgerFilter.match)
        }
    }

    /// The bulks with recipients `query` matches (within `group` when given), newest first, with how many each.
    /// Their sum is the number of recipients matched.
    public func matchingBulks(_ query: DeliveryQuery, group: LedgerGroup? = nil) throws -> [LedgerBulkMatch] {
        let filter = LedgerFilter(query, group: group)
        return try database.read { db in try Self.matchingBulks(db, filter) }
    }

    /// How many recipients `query` matches (within `group` when given).
    public func matchCount(_ query: DeliveryQuery, group: LedgerGroup? = nil) throws -> Int {
        let filter = LedgerFilter(query, group: group)
        return try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(filter.from) WHERE \(filter.sql)", arguments: filter.arguments) ?? 0
        }
    }

    static func matchingBulks(_ db: Database, _ filter: LedgerFilter) throws -> [LedgerBulkMatch] {
        try Row.fetchAll(db, sql: """
            SELECT b.bulk_id, b.created_ms, m.n, b.recipient_count
            FROM (SELECT i.bulk_id AS id, COUNT(*) AS n FROM \(filter.from) WHERE \(filter.sql) GROUP BY \(filter.bulk)) m
            JOIN bulk b ON b.bulk_id = m.id
            ORDER BY b.created_ms DESC, b.bulk_id
            """, arguments: filter.arguments).map { row in
                LedgerBulkMatch(bulkId: row[0], createdAt: Date(epochMilliseconds: row[1]), matched: row[2], recipientCount: row[3])
            }
    }

}

/// A query as a WHERE clause over `i` (invitation) alone, or `i` and `b` (bulk) when it groups by sender ID: a term
/// about a bulk or a person is a look-up in the set of those that match, asked once.
struct LedgerFilter {
    var sql: String
    var arguments: StatementArguments
    /// Whether the clause reads a bulk's columns (grouping by sender ID).
    var needsBulk: Bool
    /// Whether it asks for failures (`status:failed`): the rows of the partial index `invitation_failed`.
    var failuresOnly: Bool

    /// The tables the clause reads.
    var from: String { needsBulk ? "invitation i JOIN bulk b ON b.bulk_id = i.bulk_id" : "invitation i" }

    /// `from`, reading failures through `invitation_failed` when the query asks for them: it holds all a breakdown
    /// groups and sums, and without statistics SQLite would pick the status index and read every row.
    var fromFailures: String {
        guard failuresOnly else { return from }
        return needsBulk ? "invitation i INDEXED BY invitation_failed JOIN bulk b ON b.bulk_id = i.bulk_id"
            : "invitation i INDEXED BY invitation_failed"
    }

    /// Invitation, its bulk and its person (by the row's person, else a contact with the number): what rows show.
    static let joined = """
        invitation i JOIN bulk b ON b.bulk_id = i.bulk_id
        LEFT JOIN person p ON p.id = COALESCE(i.person_id, (SELECT ph.person_id FROM phone ph WHERE ph.e164 = i.msisdn LIMIT 1))
        """

    /// The person's name as `Person.displayName` words it from its name fields.
    static let name = """
        CASE WHEN p.id IS NULL THEN NULL WHEN trim(p.formatted_name) <> '' THEN trim(p.formatted_name)
             ELSE NULLIF(trim(trim(p.first_name) || ' ' || trim(p.last_name)), '') END
        """

    static let text = "COALESCE(i.text, b.message_text)"

    /// `LedgerStore.columns` (prefixed), then name, country, sender, sent_by, text (over `joined`).
    static let matchColumns = """
        i.id, i.msisdn, i.person_id, i.bulk_id, i.message_id, i.correlator, i.status, i.created_ms, i.updated_ms,
        i.attempts, i.error, i.price, i.currency, i.permanent, i.text, i.clicks,
        \(name), i.country, b.sender, b.sent_by, \(text)
        """

    static func match(_ row: Row) -> LedgerMatch {
        LedgerMatch(invitation: LedgerStore.invitation(row), name: row[16], country: row[17], sender: row[18],
                    sentBy: row[19], text: row[20])
    }

    /// `i.bulk_id`, or `+i.bulk_id` when the filter reads the rows anyway (a reason, a text, a price, a plain word): SQLite
    /// then walks the table once instead of the bulk index with a row look-up per entry; a filter the indexes answer
    /// (status, country, time, bulk terms) counts per bulk from the indexes alone.
    var bulk: String

    init(_ query: DeliveryQuery, group: LedgerGroup? = nil, groupBy: LedgerDimension? = nil) {
        let rowTerms: Set<DeliveryQuery.Field> = [.any, .reason, .text, .priceAbove, .priceBelow]
        let readsRows = query.terms.contains { rowTerms.contains($0.field) } || group?.dimension == .reason
        bulk = readsRows ? "+i.bulk_id" : "i.bulk_id"
        var clauses = ["\(bulk) IS NOT NULL"]
        var arguments = StatementArguments()
        for term in query.terms {
            let (clause, values) = Self.clause(term)
            // A comparison with NULL (no reason, no price) is "no": `-reason:x` keeps the rows without a reason. A term
            // as it is (not wrapped) lets SQLite use the column's index.
            clauses.append(term.negated ? "NOT COALESCE((\(clause)), 0)" : "(\(clause))")
            arguments += StatementArguments(values)
        }
        if let group {
            let column = Self.column(group.dimension)
            if let key = group.key {
                // Reasons group without regard to case ("Absent subscriber" is "absent subscriber").
                clauses.append(group.dimension == .reason ? "\(column) = ? COLLATE NOCASE" : "\(column) = ?")
                arguments += [key]
            } else {
                clauses.append("\(column) IS NULL")
            }
        }
        needsBulk = group?.dimension == .sender || groupBy == .sender
        let failed = Set(DeliveryStatus.allCases.filter { $0.state == .failed })
        failuresOnly = query.terms.contains { $0.field == .status && !$0.negated && $0.statuses == failed }
        sql = clauses.joined(separator: " AND ")
        self.arguments = arguments
    }

    /// The column a dimension groups by.
    static func column(_ dimension: LedgerDimension) -> String {
        switch dimension {
        case .reason: return "i.error"
        case .country: return "i.country"
        case .sender: return "b.sender"
        }
    }

    /// `%value%` for LIKE … ESCAPE '\', the value's own `%`, `_` and `\` taken literally.
    static func contains(_ value: String) -> String {
        var escaped = ""
        for ch in value {
            if ch == "%" || ch == "_" || ch == "\\" { escaped.append("\\") }
            escaped.append(ch)
        }
        return "%" + escaped + "%"
    }

    /// The rows of the bulks whose `column` is LIKE the argument.
    static func inBulks(_ column: String) -> String {
        #"i.bulk_id IN (SELECT bulk_id FROM bulk WHERE \#(column) LIKE ? ESCAPE '\')"#
    }

    /// The rows whose text, as sent or else the bulk's, is LIKE the argument (twice).
    static let textLike = #"""
        (i.text LIKE ? ESCAPE '\' OR (i.text IS NULL AND i.bulk_id IN (SELECT bulk_id FROM bulk WHERE message_text LIKE ? ESCAPE '\')))
        """#

    /// The rows of the people whose search key is LIKE the argument (twice): by the row's person, else by a contact
    /// with the number.
    static let personLike = #"""
        (i.person_id IN (SELECT id FROM person WHERE search_key LIKE ? ESCAPE '\')
         OR (i.person_id IS NULL AND i.msisdn IN (SELECT ph.e164 FROM phone ph JOIN person pp ON pp.id = ph.person_id
                                                  WHERE ph.e164 IS NOT NULL AND pp.search_key LIKE ? ESCAPE '\')))
        """#

    static func clause(_ term: DeliveryQuery.Term) -> (String, [any DatabaseValueConvertible]) {
        let like = contains(term.value)
        switch term.field {
        case .status:
            // Written out (the names of `DeliveryStatus`, never typed text): `status:failed` is then the WHERE of the
            // partial index `invitation_failed`, which SQLite can only match on literals.
            let statuses = (term.statuses ?? []).map(\.rawValue).sorted()
            guard !statuses.isEmpty else { return ("0", []) }
            return ("i.status IN (\(statuses.map { "'\($0)'" }.joined(separator: ",")))", [])
        case .reason:
            return (#"i.error LIKE ? ESCAPE '\'"#, [like])
        case .country:
            return ("i.country = ?", [term.region ?? term.value.uppercased()])
        case .network:
            // The platform's delivery reports do not say which network took a message: nothing matches.
            return ("0", [])
        case .sender:
            return (inBulks("sender"), [like])
        case .by:
            return (inBulks("sent_by"), [like])
        case .bulk:
            return (inBulks("bulk_id"), [String(contains(term.value).dropFirst())])
        case .text:
            return (textLike, [like, like])
        case .after:
            return ("i.created_ms >= ?", [(term.date ?? .distantPast).epochMilliseconds])
        case .before:
            return ("i.created_ms < ?", [(term.date ?? .distantFuture).epochMilliseconds])
        case .priceAbove:
            return ("i.price > ?", [term.amount ?? 0])
        case .priceBelow:
            return ("i.price < ?", [term.amount ?? 0])
        case .any:
            let folded = contains(TextFolding.fold(term.value))
            let words = "\(personLike) OR i.error LIKE ? ESCAPE '\\' OR \(textLike)"
            // A number's digits are looked for in phone numbers; a word of letters alone only in email addresses (it
            // cannot be part of a phone number, and the cheap test for '@' spares most rows the LIKE).
            if let digits = term.numberDigits {
                return ("\(words) OR i.msisdn LIKE ? ESCAPE '\\'", [folded, folded, like, like, like, contains(digits)])
            }
            if term.value.allSatisfy(\.isLetter) {
                return ("\(words) OR (instr(i.msisdn, '@') > 0 AND i.msisdn LIKE ? ESCAPE '\\')", [folded, folded, like, like, like, like])
            }
            return ("\(words) OR i.msisdn LIKE ? ESCAPE '\\'", [folded, folded, like, like, like, like])
        }
    }
}
