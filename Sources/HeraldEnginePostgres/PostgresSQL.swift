import Foundation
import HeraldEngine
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Statements of one unit of work on one PostgreSQL connection. It runs on a thread of the store's pool (never an
/// event loop, never the cooperative pool) and waits for each answer there.
final class PostgresSQL: EngineSQL {
    let connection: PostgresConnection
    let logger: Logger
    /// Set when the unit stored events: its commit notifies the other replicas.
    private(set) var announces = false

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [SQLRow] {
        try run(sql, arguments).rows.map(Self.row)
    }

    func announceEvents() throws { announces = true }

    /// Statements without arguments, one after the other (the driver sends one statement per request).
    func script(_ statements: [String]) throws {
        for sql in statements {
            do { _ = try connection.answer(PostgresQuery(unsafeSQL: sql), logger: logger).wait() } catch {
                throw Self.storeError(error)
            }
        }
    }

    private func run(_ sql: String, _ arguments: SQLArguments) throws -> PostgresQueryResult {
        var bindings = PostgresBindings(capacity: arguments.count)
        for value in arguments.sqlValues {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let i): bindings.append(i)
            case .real(let d): bindings.append(d)
            case .text(let s): bindings.append(s)
            case .blob(let b): bindings.append(ByteBuffer(bytes: b))
            }
        }
        let query = PostgresQuery(unsafeSQL: PostgresPlaceholders.numbered(sql), binds: bindings)
        do { return try connection.answer(query, logger: logger).wait() } catch { throw Self.storeError(error) }
    }

    static func row(_ row: PostgresRow) -> SQLRow {
        var columns: [String] = []
        var values: [SQLValue] = []
        for cell in row {
            columns.append(cell.columnName)
            values.append(value(cell))
        }
        return SQLRow(columns: columns, values: values)
    }

    static func value(_ cell: PostgresCell) -> SQLValue {
        guard cell.bytes != nil else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid: return .integer(try cell.decode(Int64.self))
            case .float4, .float8: return .real(try cell.decode(Double.self))
            case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .numeric:
                let text = try cell.decode(String.self)
                if let i = Int64(text) { return .integer(i) }
                return .real(Double(text) ?? 0)
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return .blob(buffer.readData(length: buffer.readableBytes) ?? Data())
            default: return .text(try cell.decode(String.self))
            }
        } catch {
            return .text(String(buffer: cell.bytes ?? ByteBuffer()))
        }
    }

    /// PostgreSQL's and the driver's errors as the store's: the server's SQLSTATE and message, never the statement.
    static func storeError(_ error: any Error) -> any Error {
        switch error {
        case is EngineStoreError:
            return error
        case let psql as PSQLError:
            guard psql.code == .server, let info = psql.serverInfo else {
                return EngineStoreError.unavailable("PostgreSQL connection: \(psql.code)")
            }
            return serverError(state: info[.sqlState], message: info[.message])
        case PostgresError.server(let info):
            // The driver's older interface (several statements in one round trip) reports this way.
            return serverError(state: info.fields[.sqlState], message: info.fields[.message])
        case PostgresError.connectionClosed:
            return EngineStoreError.unavailable("PostgreSQL connection closed")
        case PostgresError.protocol(let why):
            return EngineStoreError.unavailable("PostgreSQL protocol: \(why)")
        default:
            return EngineStoreError.unavailable("\(type(of: error))")
        }
    }

    private static func serverError(state: String?, message: String?) -> EngineStoreError {
        let state = state ?? "?????"
        let words = "PostgreSQL \(state): \(message ?? "no message")"
        switch state {
        // serialization failure, deadlock, lock not available, query cancelled (statement timeout), too many connections
        case "40001", "40P01", "55P03", "57014", "53300": return EngineStoreError.busy(words)
        // admin shutdown, crash shutdown, cannot connect now
        case "57P01", "57P02", "57P03": return EngineStoreError.unavailable(words)
        default: return EngineStoreError.failed(words)
        }
    }
}

/// The engine writes `?` placeholders (SQLite's); PostgreSQL numbers them (`$1`, `$2`, …). Question marks inside
/// quoted strings and identifiers are left alone. Translations are kept, since the engine has a few dozen statements.
enum PostgresPlaceholders {
    private static let cache = NIOLockedValueBox<[String: String]>([:])

    static func numbered(_ sql: String) -> String {
        if let known = cache.withLockedValue({ $0[sql] }) { return known }
        var out = ""
        out.reserveCapacity(sql.utf8.count + 16)
        var n = 0
        var quote: Character?
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                out.append(c)
            } else if c == "?" {
                n += 1
                out += "$\(n)"
            } else {
                out.append(c)
            }
        }
        cache.withLockedValue { $0[sql] = out }
        return out
    }
}
