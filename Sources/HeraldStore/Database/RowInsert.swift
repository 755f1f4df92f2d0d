import GRDB
import GRDBSQLite

/// Runs a prepared INSERT through SQLite's C API: values are bound straight from Swift strings and
/// integers, without building GRDB's argument arrays for every row: the importer runs one per
/// person, number and email.
///
/// Use on the statement's connection, inside its write; bind every parameter, then `run`.
struct RowInsert {
    private let statement: Statement
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection?

    init(_ statement: Statement, db: Database) {
        self.statement = statement
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
    }

    /// SQLite copies the bytes during the call (the Swift string need not outlive it).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ text: String?) {
        guard var text else { sqlite3_bind_null(handle, index); return }
        text.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would take for NULL: bind "" itself.
            if let base = bytes.baseAddress {
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
                }
            } else {
                sqlite3_bind_text(handle, index, "", 0, Self.transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }

    func bind(_ index: Int32, _ value: Bool) { sqlite3_bind_int64(handle, index, value ? 1 : 0) }

    /// Steps the statement once and resets it; a refusal comes out as GRDB's `DatabaseError`.
    func run() throws {
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else {
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
        sqlite3_reset(handle)
    }
}
