import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The Deliveries query, breakdown and export on a real SQLite file.
@Suite struct LedgerQueryTests {
    let ana = "+385981234567"      // HR, Ana Horvat
    let bob = "+385911111111"      // HR, Bob Kovač (no person on the row: found by the number)
    let eva = "+38640123456"       // SI, no contact
    let joe = "+12025550123"       // US, no contact

    /// Two bulks sent here (Ana, Bob, Eva 10 days ago; Ana again and Joe today) and a colleague's bulk (Eva, Joe).
    struct World {
        let store: TempStore
        let ledger: LedgerStore
        let start: Date
    }

    func world() throws -> World {
        let s = try TempStore()
        let anaP = try s.contacts.insert(person("Ána", "Horvat", phones: ["098 123 4567"]))
        _ = try s.contacts.insert(person("Bob", "Kovač", phones: ["091 111 1111"]))
        let ledger = LedgerStore(database: s.database, clock: s.clock, sentBy: "Marta")
        let start = s.clock.now()
        try ledger.enqueue([QueuedRecipient(msisdn: ana, personId: anaP.id, correlator: "a1"),
                            QueuedRecipient(msisdn: bob, personId: nil, correlator: "b1"),
                            QueuedRecipient(msisdn: eva, personId: nil, correlator: "e1")])
        try ledger.recordSent(bulk: BulkRecord(bulkId: "old-bulk", createdAt: start, messageText: "Join me on Herald",
                                               sender: "Herald", recipientCount: 3), outcomes: [
            SendOutcome(correlator: "a1", messageId: "m-a1", status: .messageWaiting, text: "Ana, join me on Herald"),
            SendOutcome(correlator: "b1", messageId: "m-b1", status: .messageWaiting),
            SendOutcome(correlator: "e1", messageId: "m-e1", status: .messageWaiting),
        ])
        _ = try ledger.applyDeliveryInfos(bulkId: "old-bulk", [
            DeliveryUpdate(address: ana, messageId: "m-a1", status: .deliveryImpossible, price: 0.02, currency: "EUR",
                           reason: "Absent Subscriber", permanent: false),
            DeliveryUpdate(address: bob, messageId: "m-b1", status: .deliveryImpossible, price: 0.02, currency: "EUR",
                           reason: "Unknown subscriber, permanent", permanent: true),
            DeliveryUpdate(address: eva, messageId: "m-e1", status: .deliveredToTerminal, price: 0.05, currency: "EUR"),
        ])
        s.clock.advance(by: 10 * 86_400)
        try ledger.enqueue([QueuedRecipient(msisdn: ana, personId: anaP.id, correlator: "a2"),
                            QueuedRecipient(msisdn: joe, personId: nil, correlator: "j2")])
        try ledger.recordSent(bulk: BulkRecord(bulkId: "new-bulk", createdAt: s.clock.now(), messageText: "Party at 8",
                                               sender: "Events", recipientCount: 2), outcomes: [
            SendOutcome(correlator: "a2", messageId: "m-a2", status: .messageWaiting),
            SendOutcome(correlator: "j2", messageId: "m-j2", status: .rejected, error: "Absent subscriber"),
        ])
        s.clock.advance(by: 60)
        try ledger.recordTeamBulk(bulkId: "team-bulk", createdAt: s.clock.now(), messageText: "From the office", sentBy: "desk-key", [
            DeliveryUpdate(address: "38640123456", messageId: "t-e", status: .deliveryImpossible, reason: "absent subscriber"),
            DeliveryUpdate(address: "12025550123", messageId: "t-j", status: .deliveredToNetwork, price: 0.1, currency: "USD"),
        ])
        return World(store: s, ledger: ledger, start: start)
    }

    func q(_ w: World, _ text: String) throws -> DeliveryQuery {
        try DeliveryQuery(text, now: w.store.clock.now(), timeZone: TimeZone(identifier: "UTC")!)
    }

    func numbers(_ w: World, _ text: String) throws -> [String] {
        try w.ledger.matches(q(w, text), limit: 100).map(\.invitation.msisdn)
    }

    @Test func countriesAreFilledAtInsertAndWhoSentWithTheBulk() throws {
        let w = try world()
        let all = try w.ledger.matches(q(w, ""), limit: 100)
        #expect(all.count == 7)
        #expect(Dictionary(all.map { ($0.invitation.correlator, $0.country) }, uniquingKeysWith: { a, _ in a })
                == ["a1": "HR", "b1": "HR", "e1": "SI", "a2": "HR", "j2": "US", "team-t-e": "SI", "team-t-j": "US"])
        #expect(all.first { $0.invitation.correlator == "a1" }?.sentBy == "Marta")
        #expect(all.first { $0.invitation.correlator == "team-t-e" }?.sentBy == "desk-key")
        // Newest first; names from the row's person, else from a contact with the number.
        #expect(all.first?.invitation.bulkId == "team-bulk")
        #expect(all.first { $0.invitation.correlator == "a1" }?.name == "Ána Horvat")
        #expect(all.first { $0.invitation.correlator == "b1" }?.name == "Bob Kovač")
        #expect(all.first { $0.invitation.correlator == "e1" }?.name == nil)
        #expect(all.first { $0.invitation.correlator == "a1" }?.text == "Ana, join me on Herald")
        #expect(all.first { $0.invitation.correlator == "b1" }?.text == "Join me on Herald")
    }

    @Test func eachTermNarrowsAsItSays() throws {
        let w = try world()
        #expect(try Set(numbers(w, "status:failed")) == [ana, bob, joe, eva])
        #expect(try numbers(w, "status:failed").count == 4)
        #expect(try numbers(w, "status:pending") == [ana])
        #expect(try numbers(w, "status:invited").sorted() == [joe, eva].sorted())
        #expect(try numbers(w, #"reason:"ABSENT subscriber""#).count == 3)
        // A "not" keeps the rows that have no reason at all.
        #expect(try numbers(w, "-reason:absent").count == 4)
        #expect(try Set(numbers(w, "country:hr")) == [ana, bob])
        #expect(try numbers(w, "-country:HR").count == 4)
        #expect(try numbers(w, "network:A1").isEmpty)
        #expect(try numbers(w, "sender:events").sorted() == [ana, joe].sorted())
        #expect(try numbers(w, "by:marta").count == 5)
        #expect(try numbers(w, "by:desk").count == 2)
        #expect(try numbers(w, "bulk:old").count == 3)
        #expect(try numbers(w, "bulk:bulk").isEmpty, "bulk: is a prefix")
        #expect(try numbers(w, "text:party").sorted() == [ana, joe].sorted())
        #expect(try numbers(w, "text:ana") == [ana], "the text as sent to Ana, not the bulk's")
        #expect(try numbers(w, "after:1d").count == 4)
        #expect(try numbers(w, "before:1d").count == 3)
        #expect(try numbers(w, "price>:0.03").sorted() == [eva, joe].sorted())
        #expect(try numbers(w, "price<:0.03").sorted() == [ana, bob].sorted())
        #expect(try numbers(w, "status:failed country:SI") == [eva])
        #expect(try numbers(w, #"reason:"50%""#).isEmpty, "% is taken literally")
    }

    @Test func plainWordsMatchNameNumberReasonAndText() throws {
        let w = try world()
        #expect(try numbers(w, "ana").count == 2, "folded: ana finds Ána")
        #expect(try numbers(w, "kovac") == [bob])
        #expect(try numbers(w, "91 111").count == 1)
        #expect(try numbers(w, "+1 202").count == 2)
        #expect(try numbers(w, "permanent") == [bob])
        #expect(try numbers(w, "office").count == 2)
        #expect(try numbers(w, #""at 8""#).count == 2)
        #expect(try numbers(w, "-ana").count == 5)
        // A word of letters finds an email address, never a phone number's digits.
        w.store.clock.advance(by: 60)
        try w.ledger.recordTeamBulk(bulkId: "mail-bulk", createdAt: w.store.clock.now(), [
            DeliveryUpdate(address: "ivo@example.com", messageId: "mail-1", status: .deliveredToNetwork),
        ])
        #expect(try numbers(w, "example") == ["ivo@example.com"])
        #expect(try numbers(w, "IVO") == ["ivo@example.com"])
        #expect(try numbers(w, "ivo@example.com") == ["ivo@example.com"])
        #expect(try w.ledger.matches(q(w, "ivo"), limit: 10).first?.country == nil)
    }

    @Test func bulksCountTheirMatchesAndGroupsNarrowExactly() throws {
        let w = try world()
        let bulks = try w.ledger.matchingBulks(q(w, "status:failed"))
        #expect(bulks.map(\.bulkId) == ["team-bulk", "new-bulk", "old-bulk"])
        #expect(bulks.map(\.matched) == [1, 1, 2])
        #expect(bulks.map(\.recipientCount) == [2, 2, 3])
        #expect(try w.ledger.matchCount(q(w, "status:failed")) == 4)
        // A reason group holds every spelling of it, and only it.
        let group = LedgerGroup(dimension: .reason, key: "Absent Subscriber")
        #expect(try w.ledger.matches(q(w, ""), group: group, limit: 10).map(\.invitation.correlator) == ["team-t-e", "j2", "a1"])
        let none = LedgerGroup(dimension: .reason, key: nil)
        #expect(try w.ledger.matchCount(q(w, ""), group: none) == 3)
        // Pages are newest first and do not overlap.
        let first = try w.ledger.matches(q(w, ""), limit: 4, offset: 0).map(\.invitation.correlator)
        let second = try w.ledger.matches(q(w, ""), limit: 4, offset: 4).map(\.invitation.correlator)
        #expect(first.count == 4 && second.count == 3 && Set(first).isDisjoint(with: second))
        let whole = try w.ledger.matches(q(w, ""), limit: .max).map(\.invitation.correlator)
        #expect(whole == first + second, "a page of any size, in the same order")
        #expect(try w.ledger.matches(q(w, ""), limit: 2, offset: 3).map(\.invitation.correlator) == Array(whole[3..<5]))
    }

    @Test func aPageOverManyBulksReadsThemInTheSameOrder() throws {
        let s = try TempStore()
        let ledger = s.ledger
        for b in 0..<520 {
            s.clock.advance(by: 1)
            try ledger.recordTeamBulk(bulkId: String(format: "b%04d", b), createdAt: s.clock.now(), [
                DeliveryUpdate(address: "+38591\(String(format: "%07d", 1_000_000 + b))", messageId: "m\(b)", status: .deliveredToTerminal),
            ])
        }
        let query = try DeliveryQuery("", now: s.clock.now())
        let all = try ledger.matches(query, limit: 600).map(\.invitation.bulkId)
        #expect(all.count == 520 && all.first == "b0519" && all.last == "b0000")
        #expect(try ledger.matches(query, limit: 510, offset: 5).map(\.invitation.bulkId) == Array(all[5..<515]))
        #expect(try ledger.matches(query, limit: 3, offset: 517).map(\.invitation.bulkId) == Array(all[517...]))
    }

    @Test func theBreakdownCountsSharesFinalityAndWhatCanBeRetried() throws {
        let w = try world()
        let byReason = try w.ledger.breakdown(q(w, "status:failed"), by: .reason)
        #expect(byReason.total == 4)
        #expect(byReason.rows.count == 2)
        let absent = byReason.rows[0], unknown = byReason.rows[1]
        #expect(absent.group.key?.lowercased() == "absent subscriber")
        #expect(absent.count == 3 && absent.final == 3 && absent.permanent == 0)
        // Ana and Joe were sent to again since their failures (Ana's new one waits, Joe's team one arrived): only
        // Eva's failure is hers to retry.
        #expect(absent.retryable == 1)
        #expect(absent.firstSeen == w.start && absent.lastSeen == w.start.addingTimeInterval(10 * 86_400 + 60))
        #expect(unknown.group.key == "Unknown subscriber, permanent")
        #expect(unknown.count == 1 && unknown.permanent == 1 && unknown.retryable == 0, "the carrier said for good")
        let byCountry = try w.ledger.breakdown(q(w, ""), by: .country)
        #expect(byCountry.rows.map(\.group.key) == ["HR", "SI", "US"])
        #expect(byCountry.rows.map(\.count) == [3, 2, 2])
        let hr = byCountry.rows[0]
        #expect(hr.firstSeen == w.start && hr.lastSeen == w.start.addingTimeInterval(10 * 86_400))
        #expect(hr.final == 2, "Ana's new invitation is still waiting")
        let bySender = try w.ledger.breakdown(q(w, ""), by: .sender)
        #expect(Set(bySender.rows.map(\.group.key)) == ["Herald", "Events", nil])
        let retry = try w.ledger.retryable(q(w, "status:failed"))
        #expect(retry.map(\.invitation.correlator) == ["team-t-e"])
        #expect(try w.ledger.retryable(q(w, ""), group: LedgerGroup(dimension: .reason, key: "unknown subscriber, permanent")).isEmpty)
    }

    @Test func theExportWalksEveryMatchOldestFirst() throws {
        let w = try world()
        var rows: [LedgerExportRow] = []
        let count = try w.ledger.exportRows(q(w, "-bulk:team")) { rows.append($0) }
        #expect(count == 5 && rows.count == 5)
        #expect(rows.map(\.bulkId) == ["old-bulk", "old-bulk", "old-bulk", "new-bulk", "new-bulk"])
        let first = rows[0]
        #expect(first.number == ana && first.name == "Ána Horvat" && first.country == "HR" && first.sentBy == "Marta")
        #expect(first.status == .deliveryImpossible && first.reason == "Absent Subscriber" && first.price == 0.02)
        #expect(first.currency == "EUR" && first.attempts == 1 && first.text == "Ana, join me on Herald")
        #expect(rows[3].attempts == 2, "Ana's second invitation")
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) { try w.ledger.exportRows(q(w, "")) { _ in seen += 1; if seen == 2 { throw Stop() } } }
        #expect(seen == 2)
    }

    @Test func theMigrationFillsTheCountriesOfRowsWrittenBefore() throws {
        let dir = try TempDir("ledger-v16")
        let path = dir.path("herald.sqlite")
        let queue = try DatabaseQueue(path: path)
        try HeraldMigrations.migrator.migrate(queue, upTo: "v16-person-changes")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO bulk (bulk_id, created_ms, recipient_count) VALUES ('b', 0, 3)")
            for (i, number) in [ana, eva, "ana@example.com", ana].enumerated() {
                try db.execute(sql: """
                    INSERT INTO invitation (msisdn, bulk_id, correlator, status, created_ms, updated_ms)
                    VALUES (?, 'b', ?, 'DeliveredToTerminal', ?, ?)
                    """, arguments: [number, "c\(i)", i, i])
            }
        }
        try queue.close()
        let database = try HeraldDatabase(path: path)
        let countries = try database.read { db in try String?.fetchAll(db, sql: "SELECT country FROM invitation ORDER BY id") }
        #expect(countries == ["HR", "SI", nil, "HR"])
        // Ana's first invitation was followed by another: a resend would not take it again.
        let superseded = try database.read { db in try Int.fetchAll(db, sql: "SELECT superseded FROM invitation ORDER BY id") }
        #expect(superseded == [1, 0, 0, 0])
        let indexes = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'invitation'")
        }
        #expect(indexes.contains("invitation_country") && indexes.contains("invitation_created"))
    }

    @Test func aCountryQueryUsesItsIndex() throws {
        let w = try world()
        let filter = LedgerFilter(try q(w, "country:HR"))
        let plan = try w.store.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT i.id FROM \(filter.from) WHERE \(filter.sql)",
                             arguments: filter.arguments).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("invitation_country") }, "\(plan)")
    }

    @Test func aBreakdownOfFailuresReadsOnlyTheirIndex() throws {
        let w = try world()
        let filter = LedgerFilter(try q(w, "status:failed"), groupBy: .reason)
        let retry = LedgerRetry(.default)
        let plan = try w.store.database.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT i.error, COUNT(*), SUM(i.permanent), SUM(\(retry.sql)) FROM \(filter.fromFailures)
                WHERE \(filter.sql) GROUP BY i.error COLLATE NOCASE
                """, arguments: retry.arguments + filter.arguments).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("COVERING INDEX invitation_failed") }, "\(plan)")
    }
}
