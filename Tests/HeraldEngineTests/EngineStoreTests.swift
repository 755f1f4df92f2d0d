import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldEngine

/// The contract of `EngineStore`, on whichever store the suite runs on (SQLite, or PostgreSQL with
/// `HERALD_TEST_ENGINE_STORE=postgres`).
@Suite struct EngineStoreTests {
    struct Refused: Error, Equatable {}

    @Test func aUnitThatThrowsLeavesNothingBehindAndItsErrorComesOutAsThrown() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let store = h.engine.store
        await #expect(throws: Refused.self) {
            try await store.write { db in
                try db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", ["half", "done"])
                throw Refused()
            }
        }
        let left = try await store.read { db in try db.value(String.self, "SELECT value FROM meta WHERE key = ?", ["half"]) }
        #expect(left == nil)
    }

    @Test func concurrentWritersNeverLoseAnUpdate() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let store = h.engine.store
        try await store.write { db in try db.execute("INSERT INTO meta(key, value) VALUES ('counter', '0')") }
        // Read, add one, write back: only serialised writers keep every one of them.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<24 {
                group.addTask {
                    try await store.write { db in
                        let now = Int(try db.value(String.self, "SELECT value FROM meta WHERE key = 'counter'") ?? "") ?? -1000
                        try db.execute("UPDATE meta SET value = ? WHERE key = 'counter'", [String(now + 1)])
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try await store.read { db in try db.value(String.self, "SELECT value FROM meta WHERE key = 'counter'") }
        #expect(total == "24")
    }

    @Test func aRefusedStatementIsNamedByTheDatabasesWordsNeverItsSQL() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        do {
            try await h.engine.store.write { db in
                try db.execute("INSERT INTO application(key, name) VALUES (?, ?)", ["k", "no secret"])
            }
            Issue.record("a row without its NOT NULL columns was stored")
        } catch let error as EngineStoreError {
            guard case .failed(let words) = error else { Issue.record("not a refusal: \(error)"); return }
            // SQLite's extended code for a NOT NULL violation, or PostgreSQL's SQLSTATE; both name the column.
            #expect(words.contains("SQLite error 1299") || words.contains("PostgreSQL 23502"))
            #expect(words.contains("secret"))
            #expect(!words.uppercased().contains("INSERT INTO"))
        }
    }

    @Test func valuesComeBackAsTheyWentIn() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let text = "Ana 👩‍👩‍👧 O'Brien ? $1 \"quoted\""
        let row = try await h.engine.store.write { db -> SQLRow? in
            try db.execute("""
                INSERT INTO inbox(id, applicationKey, externalUserId, title, body, topic, sentAt, seen)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, ["m1", h.creds.applicationKey, text, nil, "body with ? inside", "news", Int64.max / 2, true])
            return try db.row("SELECT * FROM inbox WHERE externalUserId = ? AND body = 'body with ? inside'", [text])
        }
        let found = try #require(row)
        #expect(found["externalUserId"] as String == text)
        #expect(found["title"] as String? == nil)
        #expect(found["sentAt"] as Int64 == Int64.max / 2)
        #expect(found["seen"] as Bool)
        // Column names are found whatever their case (PostgreSQL folds them to lower case).
        #expect(found["EXTERNALUSERID"] as String == text)
    }

    @Test(.enabled(if: TestStores.usePostgres, "replicas need PostgreSQL"))
    func anotherReplicasEventsWakeThisOneAndTheCarrierLeaseMovesWhenItsHolderCloses() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let replica = try await h.reopen()
        let woken = LockedCounter()
        let listening = Task { try await replica.store.watchEvents { woken.next() } }
        defer { listening.cancel() }
        // The listener wakes once when it starts (for what it missed), then on each commit with events.
        try await waitUntil("the listener starts") { woken.count >= 1 }
        let before = woken.count
        try await h.engine.pushInbox(user: "ana", topic: nil, title: nil, body: "from the other replica")
        try await waitUntil("the other replica's event wakes this one") { woken.count > before }

        #expect(await h.engine.store.holdsCarrierLease())
        #expect(await !replica.store.holdsCarrierLease())
        await h.engine.store.close()
        try await waitUntil("the lease passes to the replica left") { await replica.store.holdsCarrierLease() }
        await replica.store.close()
    }

    func waitUntil(_ what: String, _ check: () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if await check() { return }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        Issue.record("timed out waiting for \(what)")
    }
}
