import Foundation
import GRDB
import HeraldCore

/// One group of a breakdown: the recipients a query matched that share a reason, a country or a sender ID.
public struct LedgerBreakdownRow: Sendable, Hashable {
    public var group: LedgerGroup
    public var count: Int
    /// The first and last time a recipient of the group was sent to.
    public var firstSeen: Date
    public var lastSeen: Date
    /// How many the carrier said failed for good (the `permanent` column).
    public var permanent: Int
    /// How many are in a final status (no further change is expected: `DeliveryStatus.isFinal`).
    public var final: Int
    /// How many a resend would send again: the number's latest invitation is this one, and `ResendPolicy` says send.
    public var retryable: Int
}

/// A breakdown of what a query matched by one dimension, largest group first.
public struct LedgerBreakdown: Sendable, Hashable {
    public var dimension: LedgerDimension
    public var rows: [LedgerBreakdownRow]
    /// How many recipients the query matched (the sum of the counts).
    public var total: Int
}

extension LedgerStore {
    /// Groups the recipients `query` matches by `dimension`: count, first and last seen, how many are final, failed
    /// for good, and can be retried under `policy`. Largest group first; ties by key. Reasons group without regard to
    /// ASCII case (the key is one of the spellings).
    public func breakdown(_ query: DeliveryQuery, by dimension: LedgerDimension,
                          policy: ResendPolicy = .default) throws -> LedgerBreakdown {
        let filter = LedgerFilter(query, groupBy: dimension)
        let key = LedgerFilter.column(dimension)
        let finals = DeliveryStatus.allCases.filter(\.isFinal).map(\.rawValue)
        let retry = LedgerRetry(policy)
        return try database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(key) AS k, COUNT(*), MIN(i.created_ms), MAX(i.created_ms), SUM(i.permanent <> 0),
                       SUM(i.status IN (\(finals.map { _ in "?" }.joined(separator: ",")))),
                       SUM(\(retry.sql))
                FROM \(filter.fromFailures) WHERE \(filter.sql)
                GROUP BY k\(dimension == .reason ? " COLLATE NOCASE" : "") ORDER BY COUNT(*) DESC, k
                """, arguments: StatementArguments(finals) + retry.arguments + filter.arguments)
            let groups = rows.map { row in
                LedgerBreakdownRow(group: LedgerGroup(dimension: dimension, key: row[0]), count: row[1],
                                   firstSeen: Date(epochMilliseconds: row[2]), lastSeen: Date(epochMilliseconds: row[3]),
                                   permanent: row[4] ?? 0, final: row[5] ?? 0, retryable: row[6] ?? 0)
            }
            return LedgerBreakdown(dimension: dimension, rows: groups, total: groups.reduce(0) { $0 + $1.count })
        }
    }

    /// The recipients of `query` (within `group` when given) a resend would send again under `policy`, oldest first.
    public func retryable(_ query: DeliveryQuery, group: LedgerGroup? = nil, policy: ResendPolicy = .default) throws -> [LedgerMatch] {
        let filter = LedgerFilter(query, group: group)
        let retry = LedgerRetry(policy)
        return try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(LedgerFilter.matchColumns) FROM \(LedgerFilter.joined)
                WHERE \(filter.sql) AND \(retry.sql) ORDER BY i.created_ms, i.id
                """, arguments: filter.arguments + retry.arguments).map(LedgerFilter.match)
        }
    }
}

/// `ResendPolicy` as SQL over `i`: the row is its number's latest invitation (no later one `superseded` it), and the
/// policy says send for its status
/// and permanence (the policy is asked once for every status, with and without a permanent failure); an email address
/// as Deliveries resends one (`DeliveryStatus.isResendable(for:)`).
struct LedgerRetry {
    let sql: String
    let arguments: StatementArguments

    init(_ policy: ResendPolicy) {
        func sendable(permanent: Bool) -> [String] {
            DeliveryStatus.allCases.filter {
                policy.decide(latest: $0, permanentFailure: permanent) == .send
            }.map(\.rawValue)
        }
        let lasting = sendable(permanent: false), permanent = sendable(permanent: true)
        // An email goes again as Deliveries' resend sends it: failed, or its hand-over cut short.
        let mailed = DeliveryStatus.allCases.filter { $0.isResendable(for: "@") }.map(\.rawValue)
        func list(_ values: [String]) -> String { values.isEmpty ? "NULL" : values.map { _ in "?" }.joined(separator: ",") }
        sql = """
            (i.superseded = 0 AND CASE WHEN instr(i.msisdn, '@') > 0 THEN i.status IN (\(list(mailed)))
                                       WHEN i.permanent = 0 THEN i.status IN (\(list(lasting)))
                                       ELSE i.status IN (\(list(permanent))) END)
            """
        arguments = StatementArguments(mailed) + StatementArguments(lasting) + StatementArguments(permanent)
    }
}
