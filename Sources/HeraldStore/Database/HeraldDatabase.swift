import Foundation
import GRDB

/// The client's local SQLite file (`herald.sqlite` in the data directory): a GRDB `DatabasePool`
/// in WAL mode with a busy timeout, migrated on open.
public final class HeraldDatabase: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "herald.sqlite"

    public let pool: DatabasePool
    public let path: String

    /// Opens (creating when needed) the database at `path` and runs the migrations.
    public init(path: String, busyTimeout: TimeInterval = 5) throws {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        config.label = "herald"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        self.path = path
        self.pool = try DatabasePool(path: path, configuration: config)
        try HeraldMigrations.migrator.migrate(pool)
    }

    /// Opens `herald.sqlite` inside `directory`, creating the directory when it is missing.
    public static func open(inDirectory directory: URL) throws -> HeraldDatabase {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try HeraldDatabase(path: directory.appendingPathComponent(fileName).path)
    }

    /// The journal mode SQLite reports ("wal").
    public func journalMode() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }
}
