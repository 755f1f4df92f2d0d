import Foundation
import GRDB
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldStore

/// The ledger with several connections on one file (as several processes have), send leases, the
/// migration of older journals, and storage failures as people read them.
@Suite struct LedgerConcurrencyTests {
    @Test func claimsOfTheSameNumbersFromTwoConnectionsQueueEachNumberOnce() async throws {
        let s = try TempStore()
        let other = try HeraldDatabase(path: s.database.path)
        let numbers = (0..<200).map { "+38591" + String(1_000_000 + $0) }
        let ledgers = [s.ledger, LedgerStore(database: other)]
        let claimed = try await withThrowingTaskGroup(of: Int.self) { group in
            for (i, ledger) in ledgers.enumerated() {
                group.addTask {
                    var total = 0
                    for round in 0..<20 {
                        let wanted = numbers.map { QueuedRecipient(msisdn: $0, personId: nil, correlator: "c\(i)-\(round)-\($0)") }
                        let claim = try ledger.claim(wanted, policy: .default, owner: "o\(i)", chunkSize: 1000) { _ in
                            ("s\(i)-\(round)", "{}")
                        }
                        total += claim.sends.reduce(0) { $0 + $1.recipients.count }
                    }
                    return total
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(claimed == numbers.count)
        let rows = try s.ledger.queuedInvitations()
        #expect(rows.count == numbers.count)
        #expect(Set(rows.map(\.msisdn)).count == numbers.count)
    }

    @Test func aLeaseIsAliveUntilReleasedAndAnUnknownOwnerIsGone() throws {
        let s = try TempStore()
        let mine = try SendLease.take(for: s.database)
        let theirs = try SendLease.take(for: s.database)
        #expect(try mine.isAlive(mine.owner))
        #expect(try mine.isAlive(theirs.owner))
        #expect(try !mine.isAlive("p1-never-was"))
        #expect(try !mine.isAlive(nil))
        #expect(try !mine.isAlive("../leases/" + mine.owner))
        theirs.release()
        #expect(try !mine.isAlive(theirs.owner))
        let files = try FileManager.default.contentsOfDirectory(atPath: s.folder.appendingPathComponent("leases").path)
        #expect(files == [mine.owner + ".lock"])
    }

    @Test func aLeaseThatCannotBeCheckedIsNeverTakenForGone() throws {
        let s = try TempStore()
        let mine = try SendLease.take(for: s.database)
        // A lease "file" that cannot be opened for locking (here a folder): whether its process lives is unknown.
        let blocked = s.folder.appendingPathComponent("leases/p1-0badc0de.lock")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try mine.isAlive("p1-0badc0de") }
        mine.sweep()  // best effort: leaves what it cannot check
        #expect(FileManager.default.fileExists(atPath: blocked.path))
    }

    @Test func journalsOfEarlierVersionsMoveIntoTheLedgerWithNoOwner() throws {
        let tempDir = try TempDir("v1")
        let dir = tempDir.url
        let path = dir.appendingPathComponent(HeraldDatabase.fileName).path
        do {
            let old = try DatabaseQueue(path: path)
            try HeraldMigrations.migrator.migrate(old, upTo: "v1-caches")
            try old.write { db in
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('invite.pending.42-abc', '{\"id\":\"42-abc\"}')")
                try db.execute(sql: """
                    INSERT INTO setting (key, value) VALUES ('inbox.pendingSeen', '{"ana":[{"messageId":"m1","timestampDelta":3}]}')
                    """)
            }
        }
        let database = try HeraldDatabase(path: path)
        let snapshot = try LedgerStore(database: database).queuedSnapshot()
        #expect(snapshot.sends == [JournaledSend(id: "42-abc", owner: nil, payload: "{\"id\":\"42-abc\"}")])
        #expect(try SeenOutboxStore(database: database).marks(userId: "ana") == [QueuedSeenMark(messageId: "m1", seenAt: nil)])
        #expect(try SettingsStore(database: database).all().isEmpty)
    }

    @Test func aSeenQueueOfAnEarlierVersionThatCannotBeParsedIsKeptNotDeleted() throws {
        let tempDir = try TempDir("v1")
        let dir = tempDir.url
        let path = dir.appendingPathComponent(HeraldDatabase.fileName).path
        do {
            let old = try DatabaseQueue(path: path)
            try HeraldMigrations.migrator.migrate(old, upTo: "v1-caches")
            try old.write { db in try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('inbox.pendingSeen', '{\"ana\": [')") }
        }
        let database = try HeraldDatabase(path: path)
        #expect(try SeenOutboxStore(database: database).users().isEmpty)
        #expect(try SettingsStore(database: database).string("inbox.pendingSeen") == "{\"ana\": [")
    }

    @Test func aFullDiskIsNamedWithItsFolderAndWhatHappensToQueuedInvitations() throws {
        let s = try TempStore()
        var failure: (any Error)?
        do {
            try s.database.write { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
                try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('big', ?)",
                               arguments: [String(repeating: "x", count: 1_000_000)])
            }
        } catch {
            failure = error
        }
        let error = try #require(failure)
        let message = try #require(StorageFailure.message(for: error))
        #expect(message.contains("is full"))
        #expect(message.contains(s.folder.path))
        #expect(message.contains("stay queued"))
        #expect(!message.contains("INSERT"))
    }

    @Test func aWriteBlockedByAnotherConnectionSaysTheFolderIsBusy() throws {
        let s = try TempStore()
        let impatient = try HeraldDatabase(path: s.database.path, busyTimeout: 0.2)
        var failure: (any Error)?
        try s.database.pool.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            do { try SettingsStore(database: impatient).set("k", "v") } catch { failure = error }
            try db.execute(sql: "ROLLBACK")
        }
        let error = try #require(failure)
        let message = try #require(StorageFailure.message(for: error))
        #expect(message.contains("is busy"))
        #expect(message.contains("another Herald process"))
    }
}
