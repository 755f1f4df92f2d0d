import Foundation
import GRDB

/// The engine on one SQLite file (WAL, through GRDB): readers in parallel, one writer at a time. Units run on
/// GRDB's own queues; several processes may open the same file.
public final class SQLiteEngineStore: EngineStore {
    let pool: DatabasePool

    /// Opens (creating and migrating when needed) the file at `url`.
    public init(at url: URL) throws {
        do { pool = try SQLiteEngineSchema.open(at: url) } catch {
            throw Self.storeError(error)
        }
    }

    public func read<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T {
        do { return try await pool.read { db in try work(GRDBSQL(db: db)) } } catch { throw Self.storeError(error) }
    }

    public func write<T: Sendable>(_ work: @escaping @Sendable (any EngineSQL) throws -> T) async throws -> T {
        do { return try await pool.write { db in try work(GRDBSQL(db: db)) } } catch { throw Self.storeError(error) }
    }

    public func watchEvents(_ wake: @escaping @Sendable () -> Void) async throws {}

    public func holdsCarrierLease() async -> Bool { true }

    public func close() async {}

    /// GRDB's errors as the store's (SQLite's code and message, never the statement); others as they are.
    static func storeError(_ error: any Error) -> any Error {
        guard let database = error as? DatabaseError else { return error }
        let words = "SQLite error \(database.extendedResultCode.rawValue): \(database.message ?? "no message")"
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return EngineStoreError.busy(words)
        case .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_READONLY: return EngineStoreError.unavailable(words)
        default: return EngineStoreError.failed(words)
        }
    }
}

/// Statements on a GRDB connection, prepared once per connection.
struct GRDBSQL: EngineSQL {
    let db: Database

    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        let statement = try db.cachedStatement(sql: sql)
        try statement.execute(arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        let statement = try db.cachedStatement(sql: sql)
        let columns = statement.columnNames
        return try Row.fetchAll(statement, arguments: Self.arguments(arguments)).map { row in
            SQLRow(columns: columns, values: row.databaseValues.map(Self.value))
        }
    }

    func announceEvents() throws {}

    static func arguments(_ arguments: SQLArguments) -> StatementArguments {
        StatementArguments(arguments.sqlValues.map { value -> (any DatabaseValueConvertible)? in
            switch value {
            case .null: return nil
            case .integer(let i): return i
            case .real(let d): return d
            case .text(let s): return s
            case .blob(let b): return b
            }
        })
    }

    static func value(_ value: DatabaseValue) -> SQLValue {
        switch value.storage {
        case .null: return .null
        case .int64(let i): return .integer(i)
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        case .blob(let b): return .blob(b)
        }
    }
}
