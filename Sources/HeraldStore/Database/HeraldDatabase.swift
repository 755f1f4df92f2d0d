import Foundation
import GRDB
import HeraldCore
import HeraldLocks

/// The client's local SQLite file (`herald.sqlite` in the data directory): a GRDB `DatabasePool`
/// in WAL mode with a busy timeout, migrated on open.
public final class HeraldDatabase: Sendable {
    /// The file name inside the data directory.
    public static let fileName = "herald.sqlite"
    /// How long a write waits for another process's write before it fails as busy.
    public static let defaultBusyTimeout: TimeInterval = 15

    /// The connections; only the store's own types reach them (through `read` and `write`).
    let pool: DatabasePool
    public let path: String

    /// Opens (creating when needed) the database at `path`, runs the migrations and builds the contact
    /// indexes an import that was killed left missing (`DeferredIndexes`). Opening an up-to-date file
    /// writes nothing (read-only commands work while another process writes); creating or migrating is
    /// one exclusive step that other processes opening the file wait for.
    public init(path: String, busyTimeout: TimeInterval = HeraldDatabase.defaultBusyTimeout) throws {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.foreignKeysEnabled = true
        config.label = "herald"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            self.pool = try MigrationGate.open(path: path) {
                try DatabasePool(path: path, configuration: config)
            } migrate: { pool in
                try HeraldMigrations.migrator.migrate(pool)
                try DeferredIndexes.restoreIfMissing(pool, databasePath: path)
            } isCurrent: { pool in
                try pool.read { db in
                    try HeraldMigrations.migrator.hasCompletedMigrations(db)
                        && !DeferredIndexes.needRestoring(db, databasePath: path)
                }
            }
        } catch let error as DatabaseError {
            throw StorageError(folder: folder, underlying: error)
        }
    }

    /// Opens `herald.sqlite` inside `directory`, creating the directory when it is missing.
    public static func open(inDirectory directory: URL) throws -> HeraldDatabase {
        try PrivateFolder.create(directory)
        let database = try HeraldDatabase(path: directory.appendingPathComponent(fileName).path)
        PrivateFolder.tightenDatabase(at: database.path)
        return database
    }

    /// The data folder this database lives in.
    public var folder: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }

    /// A write transaction; a storage failure comes out as `StorageError` naming the folder.
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        UIThreadGuard.storageTouched("write")
        do { return try pool.write(updates) } catch let error as DatabaseError {
            throw StorageError(folder: folder, underlying: error)
        }
    }

    /// A read; a storage failure comes out as `StorageError` naming the folder.
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        UIThreadGuard.storageTouched("read")
        do { return try pool.read(value) } catch let error as DatabaseError {
            throw StorageError(folder: folder, underlying: error)
        }
    }

    /// The journal mode SQLite reports ("wal").
    public func journalMode() throws -> String {
        try pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "" }
    }
}
