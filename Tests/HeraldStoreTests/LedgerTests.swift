import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct LedgerTests {
    let ana = "+385981234567"
    let bob = "+385911111111"

    func setUp() throws -> (TempStore, Person) {
        let s = try TempStore()
        let p = try s.contacts.insert(person("Ana", "Horvat", phones: ["098 123 4567", "091 111 1111"]))
        return (s, p)
    }

    @Test func queuedRowsExistBeforeThePlatformAnswersAndSurviveARestart() throws {
        let (s, p) = try setUp()
        let rows = try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1"),
                                         QueuedRecipient(msisdn: bob, personId: p.id, correlator: "c2")])
        #expect(rows.map(\.status) == [.queued, .queued])
        // A "restart": a new store on the same file still sees them for reconciling.
        let reopened = LedgerStore(database: try HeraldDatabase.open(inDirectory: s.folder))
        #expect(try reopened.queuedInvitations().map(\.correlator) == ["c1", "c2"])
        #expect(try s.ledger.deliveryStatus(msisdn: ana) == .queued)
    }

    @Test func theCarriersPriceAndReasonAreKeptAndAPermanentFailureIsNotClaimedAgain() throws {
        let (s, p) = try setUp()
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1"),
                              QueuedRecipient(msisdn: bob, personId: p.id, correlator: "c2")])
        try s.ledger.recordSent(bulk: BulkRecord(bulkId: "B1", createdAt: s.clock.now(), messageKey: "welcome", sender: "Herald",
                                                 recipientCount: 2, nextPollAt: nil), outcomes: [
            SendOutcome(correlator: "c1", messageId: "m1", status: .messageWaiting),
            SendOutcome(correlator: "c2", messageId: "m2", status: .messageWaiting),
        ])
        let changes = try s.ledger.applyDeliveryInfos(bulkId: "B1", [
            DeliveryUpdate(address: ana, messageId: "m1", status: .deliveryImpossible, price: 0.0075, currency: "EUR",
                           reason: "Absent Subscriber", permanent: true),
            DeliveryUpdate(address: bob, messageId: "m2", status: .messageWaiting, price: 0.0075, currency: "EUR"),
        ])
        #expect(changes.count == 1)
        let rows = try s.ledger.recipients(ofBulk: "B1")
        #expect(rows.map(\.price) == [0.0075, 0.0075] && rows.map(\.currency) == ["EUR", "EUR"])
        #expect(rows.first?.error == "Absent Subscriber" && rows.first?.permanentFailure == true)
        #expect(rows.last?.permanentFailure == false)
        let claim = try s.ledger.claim([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c3")], policy: .default,
                                       owner: "o", chunkSize: 10) { _ in ("s1", "{}") }
        #expect(claim.sends.isEmpty)
        #expect(claim.skipped.first?.reason.contains("permanent") == true)
        let forced = try s.ledger.claim([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c4")],
                                        policy: ResendPolicy(allowResendToInvited: true), owner: "o", chunkSize: 10) { _ in ("s2", "{}") }
        #expect(forced.sends.count == 1)
    }

    @Test func aDuplicateCorrelatorWritesNothingFromTheBatch() throws {
        let (s, p) = try setUp()
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1")])
        #expect(throws: LedgerError.self) {
            try s.ledger.enqueue([QueuedRecipient(msisdn: bob, personId: p.id, correlator: "c9"),
                                  QueuedRecipient(msisdn: bob, personId: p.id, correlator: "c1")])
        }
        #expect(try s.ledger.queuedInvitations().map(\.correlator) == ["c1"])
    }

    @Test func recordsThePlatformAnswerAndPollsUntilFinal() throws {
        let (s, p) = try setUp()
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1"),
                              QueuedRecipient(msisdn: bob, personId: p.id, correlator: "c2")])
        let bulk = BulkRecord(bulkId: "B1", createdAt: s.clock.now(), messageKey: "welcome", sender: "Herald",
                              recipientCount: 2, nextPollAt: s.clock.now().addingTimeInterval(8))
        try s.ledger.recordSent(bulk: bulk, outcomes: [
            SendOutcome(correlator: "c1", messageId: "m1", status: .messageWaiting),
            SendOutcome(correlator: "c2", messageId: "m2", status: .messageWaiting),
        ])
        #expect(try s.ledger.queuedInvitations().isEmpty)
        #expect(try s.ledger.bulk(id: "B1")?.messageKey == "welcome")
        #expect(try s.ledger.bulksWithPendingRecipients().map(\.bulkId) == ["B1"])
        #expect(try s.ledger.recipients(ofBulk: "B1").map(\.messageId) == ["m1", "m2"])

        s.clock.advance(by: 8)
        let changes = try s.ledger.applyDeliveryInfos(bulkId: "B1", [
            DeliveryUpdate(address: "385981234567", messageId: "m1", status: .deliveredToTerminal),
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToNetwork),
            DeliveryUpdate(address: "385000000000", messageId: "zz", status: .deliveredToTerminal),
        ])
        #expect(changes.map { "\($0.msisdn) \($0.from.rawValue)→\($0.to.rawValue)" } == [
            "+385981234567 MessageWaiting→DeliveredToTerminal", "+385911111111 MessageWaiting→DeliveredToNetwork",
        ])
        try s.ledger.recordPoll(bulkId: "B1", nextPollAt: s.clock.now().addingTimeInterval(8))
        let polled = try #require(try s.ledger.bulk(id: "B1"))
        #expect(polled.passesDone == 1)
        #expect(polled.lastPolledAt == s.clock.now())
        // DeliveredToNetwork is not final: still pending.
        #expect(try s.ledger.bulksWithPendingRecipients().map(\.bulkId) == ["B1"])
        // Same status again: no change reported; a final status never goes back.
        #expect(try s.ledger.applyDeliveryInfos(bulkId: "B1", [
            DeliveryUpdate(address: "385911111111", messageId: "m2", status: .deliveredToNetwork),
            DeliveryUpdate(address: "385981234567", messageId: "m1", status: .messageWaiting),
        ]).isEmpty)
        _ = try s.ledger.applyDeliveryInfos(bulkId: "B1", [DeliveryUpdate(address: "tel:+385911111111", messageId: nil,
                                                                           status: .deliveredToTerminal)])
        #expect(try s.ledger.bulksWithPendingRecipients().isEmpty)
        #expect(try s.ledger.deliveryStatus(msisdn: ana) == .deliveredToTerminal)
    }

    @Test func failuresKeepTheRowAndTheReasonAndAllowRetry() throws {
        let (s, p) = try setUp()
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1")])
        try s.ledger.markFailed(correlators: ["c1"], reason: "platform unreachable")
        let failed = try #require(try s.ledger.invitation(correlator: "c1"))
        #expect(failed.status == .sendFailed)
        #expect(failed.error == "platform unreachable")
        #expect(try s.ledger.queuedInvitations().isEmpty)
        s.clock.advance(by: 60)
        let retry = try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1-retry")])
        #expect(retry[0].attempts == 2)
        #expect(try s.ledger.latestInvitation(msisdn: ana)?.correlator == "c1-retry")
        #expect(try s.ledger.invitations(personId: try #require(p.id)).map(\.correlator) == ["c1", "c1-retry"])
    }

    @Test func personSummaryNotYetInvitedAndBulkIds() throws {
        let (s, p) = try setUp()
        #expect(try s.ledger.numbersNotYetInvited(p) == [ana, bob])
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c1")])
        try s.ledger.recordSent(bulk: BulkRecord(bulkId: "B1", createdAt: s.clock.now(), recipientCount: 1),
                                outcomes: [SendOutcome(correlator: "c1", messageId: "m1", status: .deliveredToTerminal)])
        s.clock.advance(by: 10)
        try s.ledger.enqueue([QueuedRecipient(msisdn: ana, personId: p.id, correlator: "c2")])
        try s.ledger.recordSent(bulk: BulkRecord(bulkId: "B2", createdAt: s.clock.now(), recipientCount: 1),
                                outcomes: [SendOutcome(correlator: "c2", messageId: "m2", status: .rejected, error: "blocked")])
        #expect(try s.ledger.numbersNotYetInvited(p) == [bob])
        #expect(try s.ledger.bulkIds(for: p) == ["B1", "B2"])
        let summary = try s.ledger.summary(for: p)
        #expect(summary.statusByNumber[ana] == .rejected)   // the latest counts
        #expect(try s.ledger.latestStatuses(msisdns: [ana, bob]) == [ana: .rejected])
        #expect(try s.ledger.bulks().map(\.bulkId) == ["B2", "B1"])
    }
}
