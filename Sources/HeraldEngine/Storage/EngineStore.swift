import Foundation

/// Where the engine keeps its data: SQLite (one file, GRDB) or PostgreSQL (postgres-nio, several replicas on one
/// database). The engine's SQL is written once, in its repositories (`Repositories/`, one per area), in the subset both
/// understand (`?` placeholders, `ON CONFLICT` upserts, row values); a store translates what it must.
///
/// A unit of work is a synchronous closure run on the store's own threads (GRDB's queues, or a thread pool that
/// owns PostgreSQL connections), never on the cooperative pool: the caller awaits it. Write units are serialised
/// (SQLite's one writer; PostgreSQL's transaction-level advisory lock, across replicas) and commit or roll back
/// whole. Read units see one snapshot.
public protocol EngineStore: Sendable {
    /// Runs `work` in a read-only transaction.
    @discardableResult
    func read<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T
    /// Runs `work` in a write transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    func write<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T
    /// Calls `wake` whenever another process (a replica) committed events; nil when the store cannot tell
    /// (a SQLite file shared by processes: subscribers look again on a timer).
    func watchEvents(_ wake: @escaping @Sendable () -> Void) async throws
    /// Whether this process may run the background carrier work now: exactly one replica holds the lease on a
    /// shared database, and another takes it over within seconds when that one dies. Always true on SQLite, whose
    /// claims already keep processes on one file apart.
    func holdsCarrierLease() async -> Bool
    /// Ends connections (PostgreSQL) and waits for units under way.
    func close() async
}

/// Statements inside one unit of work.
public protocol EngineSQL {
    /// Runs a statement; answers how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int
    /// Runs a query; answers its rows.
    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow]
    /// Tells other replicas, once this unit commits, that it stored events.
    func announceEvents() throws
}

extension EngineSQL {
    @discardableResult
    func execute(_ sql: String) throws -> Int { try execute(sql, []) }

    func rows(_ sql: String) throws -> [SQLRow] { try rows(sql, []) }

    /// The first row, nil when there is none.
    func row(_ sql: String, _ arguments: SQLArguments = []) throws -> SQLRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row; nil when there is no row or it is NULL.
    func value<T: SQLDecodable>(_ type: T.Type = T.self, _ sql: String, _ arguments: SQLArguments = []) throws -> T? {
        guard let row = try row(sql, arguments), let value = row.values.first, value != .null else { return nil }
        return row[0] as T
    }
}

/// Why a unit of work failed, in words fit for a log or an error envelope: never SQL text.
public enum EngineStoreError: Error, Sendable, CustomStringConvertible {
    /// The database is locked by someone else for longer than the store waits; try again.
    case busy(String)
    /// The database cannot be reached (PostgreSQL down, connection lost).
    case unavailable(String)
    /// The database refused the work (a constraint, a broken file, a bug).
    case failed(String)

    /// The database refused the work (rather than being busy or out of reach): trying again will not help.
    public var isRefusal: Bool {
        if case .failed = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .busy(let why): return "storage busy: \(why)"
        case .unavailable(let why): return "storage unavailable: \(why)"
        case .failed(let why): return "storage failed: \(why)"
        }
    }
}

/// Statements over many rows at once: one round trip per chunk instead of one per row (what PostgreSQL's
/// latency asks for; SQLite gains too).
enum SQLBatch {
    /// Rows per statement: well under SQLite's 32,766 and PostgreSQL's 65,535 bound values at 14 columns.
    static let rows = 200

    /// `(?, ?), (?, ?), …`: `count` rows of `columns` placeholders.
    static func values(_ count: Int, columns: Int) -> String {
        let row = "(" + list(columns) + ")"
        return Array(repeating: row, count: count).joined(separator: ", ")
    }

    /// `?, ?, …` for an `IN (…)` of `count` values.
    static func list(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The items in chunks of at most `size`.
    static func chunks<T>(_ items: [T], size: Int = rows) -> [ArraySlice<T>] {
        stride(from: 0, to: items.count, by: size).map { items[$0..<min($0 + size, items.count)] }
    }
}
