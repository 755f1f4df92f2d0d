import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
import HeraldLocks
@testable import HeraldStore

/// An import into a book much smaller than itself builds the sort and number indexes after its rows; whatever
/// happens to it, the book ends up with them.
@Suite struct DeferredIndexTests {
    static let names = DeferredIndexes.all.map(\.name)

    /// Which of the three indexes the database has.
    static func present(_ db: HeraldDatabase) throws -> Set<String> {
        try db.pool.read { db in
            Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")).intersection(names)
        }
    }

    /// Notes, on the importing connection, how many of the three indexes exist when the person with last name
    /// `last` is inserted: what the import's own transactions see half-way.
    static func watchIndexes(_ db: HeraldDatabase, whenInserting last: String) throws {
        try db.pool.write { db in
            try db.execute(sql: """
                CREATE TEMP TABLE seen (indexes INTEGER);
                CREATE TEMP TRIGGER watch AFTER INSERT ON main.person WHEN NEW.last_name = '\(last)'
                BEGIN
                    INSERT INTO seen SELECT COUNT(*) FROM main.sqlite_master
                    WHERE type = 'index' AND name IN ('person_sort_first', 'person_sort_last', 'phone_e164');
                END
                """)
        }
    }

    static func seen(_ db: HeraldDatabase) throws -> [Int] {
        try db.pool.write { try Int.fetchAll($0, sql: "SELECT indexes FROM temp.seen") }
    }

    /// The query plan of the Contacts listing and of a lookup by number.
    static func plans(_ db: HeraldDatabase) throws -> String {
        try db.pool.read { db in
            let sorted = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM person ORDER BY sort_last, id LIMIT 20")
            let byNumber = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT person_id FROM phone WHERE e164 = '+385981000001'")
            return (sorted + byNumber).map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
        }
    }

    @Test func aBigImportIntoAnEmptyBookBuildsTheIndexesAfterItsRows() throws {
        let s = try TempStore()
        try Self.watchIndexes(s.database, whenInserting: "Person2500")
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 500, clock: s.clock)
        let report = try importer.importContacts(from: s.write("book.vcf", ImportConcurrencyTests.book(3000)))
        #expect(report.imported == 3000)
        #expect(try Self.seen(s.database) == [0])            // the rows went in without them
        #expect(try Self.present(s.database) == Set(Self.names))
        let plans = try Self.plans(s.database)
        #expect(plans.contains("person_sort_last"), "\(plans)")
        #expect(plans.contains("phone_e164"), "\(plans)")
        // And they index what was stored: the book in last-name order, a person by number.
        let ids = try s.database.pool.read { try Int64.fetchAll($0, sql: "SELECT id FROM person ORDER BY sort_last, id") }
        let sorted = try s.database.pool.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM person NOT INDEXED ORDER BY sort_last, id")
        }
        #expect(ids == sorted)
        #expect(try s.contacts.people(sortedBy: .lastName, limit: 1).first?.lastName == "Person0")
        let byNumber = try s.database.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM phone WHERE e164 = '+385981002999'")
        }
        #expect(byNumber == 1)
    }

    @Test func aSmallImportIntoABigBookKeepsThemUp() throws {
        let s = try TempStore()
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 500, clock: s.clock)
        _ = try importer.importContacts(from: s.write("book.vcf", ImportConcurrencyTests.book(3000)))
        // 2,500 others (names, numbers and emails) into a book of 3,000: fewer than it holds.
        try Self.watchIndexes(s.database, whenInserting: "Other2400")
        let more = ImportConcurrencyTests.book(2500).replacingOccurrences(of: "Person", with: "Other")
            .replacingOccurrences(of: "person", with: "other").replacingOccurrences(of: "+385 98", with: "+385 91")
        #expect(try importer.importContacts(from: s.write("more.vcf", more)).imported == 2500)
        #expect(try Self.seen(s.database) == [3])
        #expect(try Self.present(s.database) == Set(Self.names))
    }

    @Test func anImportThatFailsHalfWayStillBuildsThem() throws {
        let s = try TempStore()
        try s.failInserting(lastName: "Person2700")
        let importer = ContactImporter(database: s.database, parser: parserHR, batchSize: 500, clock: s.clock)
        #expect(throws: (any Error).self) {
            try importer.importContacts(from: s.write("book.vcf", ImportConcurrencyTests.book(3000)))
        }
        #expect(try s.contacts.count() == 2500)
        #expect(try Self.present(s.database) == Set(Self.names))
    }

    /// What a killed import leaves (the indexes dropped, its lock let go) is mended by the next open; while an
    /// import holds the lock, an open leaves the indexes to it.
    @Test func theNextOpenBuildsWhatAKilledImportLeftUnlessAnImportIsRunning() throws {
        let s = try TempStore()
        _ = try s.importText("few.vcf", ImportConcurrencyTests.book(20))
        try s.database.pool.write(DeferredIndexes.drop)
        #expect(try Self.present(s.database).isEmpty)

        let running = try FileLock.acquire(s.database.path + ".import-lock")
        let whileRunning = try HeraldDatabase(path: s.database.path)
        #expect(try Self.present(whileRunning).isEmpty)
        running.unlock()

        let afterwards = try HeraldDatabase(path: s.database.path)
        #expect(try Self.present(afterwards) == Set(Self.names))
        #expect(try Self.plans(afterwards).contains("person_sort_last"))
        #expect(try ContactStore(database: afterwards).count() == 20)
    }

    @Test func theRule() {
        #expect(DeferredIndexes.worthDeferring(incoming: 100_000, stored: 0))
        #expect(DeferredIndexes.worthDeferring(incoming: 100_000, stored: 10_000))
        #expect(!DeferredIndexes.worthDeferring(incoming: 100_000, stored: 10_001))
        #expect(!DeferredIndexes.worthDeferring(incoming: 140_000, stored: 100_000))   // a re-import keeps them up
        #expect(!DeferredIndexes.worthDeferring(incoming: 1999, stored: 0))   // so does a small import
    }
}
