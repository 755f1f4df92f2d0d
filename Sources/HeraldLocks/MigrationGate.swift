/// Opening a SQLite file that several processes may open at once for the first time: creating the
/// file, switching it to WAL and migrating happen under an exclusive lock file beside it, so one
/// process does them and the others wait (milliseconds, or as long as a migration takes) and find
/// the file ready (no "table already exists", no half-created schema).
public enum MigrationGate {
    public static func open<Pool>(path: String, _ make: () throws -> Pool, migrate: (Pool) throws -> Void,
                                  isCurrent: (Pool) throws -> Bool) throws -> Pool {
        let lock = try FileLock.acquire(path + ".open-lock")
        defer { lock.unlock() }
        let pool = try make()
        if try !isCurrent(pool) { try migrate(pool) }
        return pool
    }
}
