import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
import HeraldLocks
@testable import HeraldStore

/// Imports into one database from several processes (here: several connections) at once, and
/// imports that stop half-way.
@Suite struct ImportConcurrencyTests {
    /// `count` cards with distinct names and numbers.
    static func book(_ count: Int) -> String {
        (0..<count).map { i in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person\(i);Test;;;\r\nFN:Test Person\(i)\r\nTEL;TYPE=CELL:+385 98 \(1_000_000 + i)\r\n"
                + "EMAIL:person\(i)@example.com\r\nEND:VCARD\r\n"
        }.joined()
    }

    static func generation(_ db: HeraldDatabase) throws -> Int64 {
        try db.pool.read { try PersonRows.generation($0) }
    }

    @Test func twoImportsOfOneFileAtOnceStoreEveryPersonOnce() throws {
        let s = try TempStore()
        let people = 3000
        let url = try s.write("book.vcf", Self.book(people))
        // Two connections to the same file, as two `herald contacts import` processes would have.
        let other = try HeraldDatabase(path: s.database.path)
        let importers = [s.database, other].map {
            ContactImporter(database: $0, parser: parserHR, batchSize: 25, clock: s.clock)   // 120 batches each
        }
        let results = ResultBox()
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for (i, importer) in importers.enumerated() {
            group.enter()
            Thread {
                start.wait()
                results.set(i, Result { try importer.importContacts(from: url) })
                group.leave()
            }.start()
        }
        start.signal()
        start.signal()
        #expect(group.wait(timeout: .now() + 120) == .success)
        let reports = try results.all().map { try $0.get() }
        #expect(try s.contacts.count() == people)
        #expect(reports.map(\.imported).reduce(0, +) == people)
        // Whichever came second found everyone stored and changed nothing.
        #expect(reports.contains { $0.imported == 0 && $0.skipped == people && $0.updated == 0 })
        #expect(reports.allSatisfy { $0.errors.isEmpty })
    }

    @Test func anImportWaitsForAnotherAndSaysSo() throws {
        let s = try TempStore()
        let url = try s.write("book.vcf", Self.book(10))
        var importer = try s.importer()
        let waiting = DispatchSemaphore(value: 0)
        importer.onWaitingForOtherImport = { waiting.signal() }
        // Another import holds the lock.
        let held = try FileLock.acquire(importer.lockPath, timeout: 5)
        let done = DispatchSemaphore(value: 0)
        let results = ResultBox()
        let waitingImporter = importer
        Thread {
            results.set(0, Result { try waitingImporter.importContacts(from: url) })
            done.signal()
        }.start()
        #expect(waiting.wait(timeout: .now() + 30) == .success)
        #expect(try s.contacts.count() == 0)          // nothing written while it waits
        held.unlock()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(try results.all()[0].get().imported == 10)
    }

    @Test func anImportThatCannotGetTheLockInTimeSaysWhy() throws {
        let s = try TempStore()
        let url = try s.write("book.vcf", Self.book(3))
        var importer = try s.importer()
        importer.lockTimeout = 0.2
        let held = try FileLock.acquire(importer.lockPath, timeout: 5)
        defer { held.unlock() }
        do {
            _ = try importer.importContacts(from: url)
            Issue.record("the import ran while another held the lock")
        } catch let error as ImportError {
            #expect(error.description.contains("another import"))
        }
        #expect(try s.contacts.count() == 0)
    }

    @Test func everyBatchBumpsTheGenerationAsItCommits() throws {
        let s = try TempStore()
        let before = try Self.generation(s.database)
        let url = try s.write("book.vcf", Self.book(10))
        let report = try s.importer().importContacts(from: url)      // batches of 3: 3 + 3 + 3 + 1
        #expect(report.imported == 10)
        #expect(try Self.generation(s.database) == before + 4)
        // Importing the same file again changes nothing, so nothing needs to be seen again.
        let again = try s.importer().importContacts(from: url)
        #expect(again.skipped == 10)
        #expect(try Self.generation(s.database) == before + 4)
    }

    @Test func batchesCommittedBeforeAnImportFailsAreAnnounced() throws {
        let s = try TempStore()
        // The 8th person cannot be written: the import stops in its third batch, as a killed one would.
        try s.failInserting(lastName: "Person7")
        let before = try Self.generation(s.database)
        let store = s.contacts
        #expect(try store.search("person").total == 0)     // a search index built before the import
        let url = try s.write("book.vcf", Self.book(10))
        #expect(throws: (any Error).self) { try s.importer().importContacts(from: url) }
        #expect(try store.count() == 6)
        #expect(try Self.generation(s.database) == before + 2)
        #expect(try store.search("person").total == 6)     // and it sees the committed batches
    }
}

/// Results handed back by test threads.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Int: Result<ImportReport, any Error>] = [:]

    func set(_ i: Int, _ r: Result<ImportReport, any Error>) { lock.withLock { results[i] = r } }

    func all() throws -> [Result<ImportReport, any Error>] {
        lock.withLock { results.keys.sorted().compactMap { results[$0] } }
    }
}
