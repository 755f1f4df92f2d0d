import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldStore

/// The change feed's store side: every row a write touches gets a change sequence (whichever
/// connection writes it), and the screens' set-based reads agree with the row-by-row ones.
@Suite struct LedgerChangesTests {
    private func send(_ ledger: LedgerStore, bulk: String, _ numbers: [String], clock: ManualClock) throws {
        try ledger.enqueue(numbers.map { QueuedRecipient(msisdn: $0, personId: nil, correlator: "\(bulk)-\($0)") })
        try ledger.recordSent(bulk: BulkRecord(bulkId: bulk, createdAt: clock.now(), recipientCount: numbers.count),
                              outcomes: numbers.map { SendOutcome(correlator: "\(bulk)-\($0)", messageId: "\(bulk)-m-\($0)", status: .messageWaiting) })
    }

    @Test func writesOfAnotherConnectionAreChangesSinceTheLastSequence() throws {
        let s = try TempStore()
        let other = LedgerStore(database: try HeraldDatabase(path: s.database.path), clock: s.clock)
        let start = try s.ledger.version().ledger
        #expect(try s.ledger.changes(since: start).invitations.isEmpty)
        try send(other, bulk: "B1", ["+385911111111", "+385912222222"], clock: s.clock)
        let first = try s.ledger.changes(since: start)
        #expect(first.sequence > start && !first.hasMore)
        #expect(Set(first.invitations.map(\.msisdn)) == ["+385911111111", "+385912222222"])
        #expect(first.invitations.allSatisfy { $0.bulkId == "B1" && $0.status == .messageWaiting })
        #expect(first.bulks.map(\.bulkId) == ["B1"])
        #expect(try s.ledger.version().ledger == first.sequence)
        // Only what changed after: one status, the bulk's pass.
        _ = try other.applyDeliveryInfos(bulkId: "B1", [DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal)])
        try other.recordPoll(bulkId: "B1", nextPollAt: nil)
        let second = try s.ledger.changes(since: first.sequence)
        #expect(second.invitations.map(\.msisdn) == ["+385911111111"])
        #expect(second.invitations.first?.status == .deliveredToTerminal)
        #expect(second.bulks.map(\.passesDone) == [1])
        #expect(try s.ledger.changes(since: second.sequence).invitations.isEmpty)
        // Clicks alone are a change too (the screens show them), and an older, lower count never lowers them.
        _ = try other.applyDeliveryInfos(bulkId: "B1", [DeliveryUpdate(address: "385912222222", messageId: "B1-m-+385912222222",
                                                                       status: .messageWaiting, clicks: 3)])
        let third = try s.ledger.changes(since: second.sequence)
        #expect(third.invitations.map(\.msisdn) == ["+385912222222"] && third.invitations.first?.clicks == 3)
        _ = try other.applyDeliveryInfos(bulkId: "B1", [DeliveryUpdate(address: "385912222222", messageId: "B1-m-+385912222222",
                                                                       status: .messageWaiting, clicks: 1)])
        #expect(try s.ledger.changes(since: third.sequence).invitations.isEmpty)
        #expect(try s.ledger.recipients(ofBulk: "B1").first { $0.msisdn == "+385912222222" }?.clicks == 3)
    }

    @Test func aLongDeltaComesInPiecesThatJoinUp() throws {
        let s = try TempStore()
        let numbers = (0..<25).map { "+38591" + String(1_000_000 + $0) }
        try send(s.ledger, bulk: "B1", numbers, clock: s.clock)
        var seen: [String] = [], at: Int64 = 0, pieces = 0
        repeat {
            let delta = try s.ledger.changes(since: at, limit: 10)
            seen += delta.invitations.map(\.msisdn)
            at = delta.sequence
            pieces += 1
            if !delta.hasMore { break }
        } while pieces < 10
        #expect(pieces == 3)
        #expect(Set(seen) == Set(numbers) && seen.count == numbers.count)
    }

    @Test func countsPerBulkSummariesAndLatestStatusesAgreeWithTheRowByRowReads() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["+385911111111", "+385912222222"]))
        let ivo = try s.contacts.insert(person("Ivo", "Babić", phones: ["+385913333333"]))
        let zora = try s.contacts.insert(person("Zora", "Kovač", phones: ["+385914444444"]))
        try send(s.ledger, bulk: "B1", ["+385911111111", "+385913333333"], clock: s.clock)
        s.clock.advance(by: 60)
        try send(s.ledger, bulk: "B2", ["+385911111111", "+385912222222"], clock: s.clock)
        _ = try s.ledger.applyDeliveryInfos(bulkId: "B1", [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385913333333", messageId: nil, status: .deliveryImpossible),
        ])
        let snapshot = try s.ledger.bulkCounts()
        #expect(snapshot.sequence == (try s.ledger.version().ledger))
        #expect(snapshot.bulks.map(\.record.bulkId) == ["B2", "B1"])
        #expect(snapshot.bulks[1].counts == [.deliveredToTerminal: 1, .deliveryImpossible: 1])
        #expect(snapshot.bulks[0].counts == [.messageWaiting: 2])
        let people = [ana, ivo, zora]
        #expect(try s.ledger.summaries(for: people) == (try people.map { try s.ledger.summary(for: $0) }))
        let numbers = people.flatMap(\.distinctNumbers)
        let every = try s.ledger.latestStatusOfEveryNumber()
        #expect(every == (try s.ledger.latestStatuses(msisdns: numbers)))
        #expect(every["+385911111111"] == .messageWaiting)       // B2 is the latest invitation
    }
}
