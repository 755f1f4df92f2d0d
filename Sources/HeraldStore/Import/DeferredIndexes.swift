import GRDB
import HeraldLocks

/// The address book's sort and number indexes, which an import into a book much smaller than itself
/// builds once after its rows instead of keeping up row by row: inserting names and numbers in file
/// order into them is a random B-tree insert each, where building them is one sort.
///
/// They are dropped in the import's first transaction and built again in one transaction at its end,
/// also when it fails. Until then every query still answers the same, only by scanning. An import that
/// was killed leaves them missing; the next process to open the database builds them (`restoreIfMissing`),
/// unless an import is running: that one builds them when it ends.
enum DeferredIndexes {
    static let all: [(name: String, sql: String)] = [
        ("person_sort_first", "CREATE INDEX IF NOT EXISTS person_sort_first ON person(sort_first, id)"),
        ("person_sort_last", "CREATE INDEX IF NOT EXISTS person_sort_last ON person(sort_last, id)"),
        ("phone_e164", "CREATE INDEX IF NOT EXISTS phone_e164 ON phone(e164) WHERE e164 IS NOT NULL"),
    ]

    /// People an import must be expected to bring for the indexes to be built after its rows.
    static let minimumPeople = 2000

    /// Whether an import expected to bring `incoming` people into a book of `stored` builds the indexes after.
    /// Only into a book that holds a tenth of that or less: the estimate comes from the file's size, which
    /// overstates a book of photos many times, and a wrong guess costs a rebuild of the whole book's indexes
    /// (a re-import of an unchanged book, for one, writes nothing at all to them).
    static func worthDeferring(incoming: Int, stored: Int) -> Bool {
        incoming >= minimumPeople && stored <= incoming / 10
    }

    static func drop(_ db: Database) throws {
        for index in all { try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)") }
    }

    static func create(_ db: Database) throws {
        for index in all { try db.execute(sql: index.sql) }
    }

    /// Whether any of them is missing.
    static func missing(_ db: Database) throws -> Bool {
        let names = all.map(\.name)
        let present = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name IN (\(names.map { _ in "?" }.joined(separator: ", ")))
            """, arguments: StatementArguments(names)) ?? 0
        return present < names.count
    }

    /// Whether the indexes need building at open: some are missing and no import (which builds them when it
    /// ends) is running.
    static func needRestoring(_ db: Database, databasePath path: String) throws -> Bool {
        guard try missing(db) else { return false }
        if case .held = try? FileLock.probe(ContactImporter.lockPath(forDatabase: path)) { return false }
        return true
    }

    /// Builds the missing indexes, which an import that was killed left, holding the import lock meanwhile so
    /// that no import starts dropping them again. Nothing when an import holds the lock: it builds them.
    /// A lock that cannot be probed does not stop the building: with or without an import, it is correct.
    static func restoreIfMissing(_ pool: DatabasePool, databasePath path: String) throws {
        guard try pool.read(missing) else { return }
        var lock: FileLock?
        switch try? FileLock.probe(ContactImporter.lockPath(forDatabase: path)) {
        case .held: return
        case .taken(let taken): lock = taken
        case .missing, nil: break
        }
        defer { lock?.unlock() }
        try pool.write(create)
    }
}
