import Foundation
import HeraldAPI
import HeraldCore
@testable import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Delivery reports as Infobip means them: collected from its report queue or pushed to the webhook, each stored
/// once; the logs only for what no report told by the deadline; one budget for every logs request.
@Suite struct InfobipReportsTests {
    typealias EngineOnStandIn = InfobipFailureTests.EngineOnStandIn

    static func reportsRoute(_ settings: inout InfobipSettings) { settings.reports = .reports }

    @Test func reportsComeFromInfobipsQueueOnceAndTheLogsAreNotRead() async throws {
        let state = StandInState()
        await state.setFate(.undeliverable, for: String(InfobipHarness.mobile(1).dropFirst()))
        await state.setFate(.viaOperator, for: String(InfobipHarness.mobile(2).dropFirst()))
        let e = try await EngineOnStandIn(state: state, configure: Self.reportsRoute)
        defer { e.cleanUp() }
        let answer = try await e.send(["q-0", "q-1", "q-2"])
        // Handed over and waiting: nothing is due before the report deadline.
        #expect(try await e.client.deliveryInfos(bulkId: answer.bulkId).allSatisfy { !$0.deliveryStatus.isFinal })
        let pass = try await e.engine.runCarrierPass()
        #expect(pass.changed == 3)
        let infos = Dictionary(uniqueKeysWithValues: try await e.client.deliveryInfos(bulkId: answer.bulkId).map { ($0.messageId, $0) })
        #expect(infos["q-0"]?.deliveryStatus == .deliveredToTerminal)
        #expect(infos["q-1"]?.deliveryStatus == .deliveryImpossible)
        #expect(infos["q-1"]?.reason == "Absent Subscriber")
        #expect(infos["q-2"]?.deliveryStatus == .deliveredToTerminal)
        #expect(infos["q-0"]?.price == 0.0075)
        #expect(await e.state.requests(to: "/sms/3/logs").isEmpty)
        let collected = await e.state.requests(to: "/sms/3/reports")
        #expect(collected.count == 1)
        #expect(collected.first?.values("limit") == ["1000"])
        // Each report was given once: the next pass finds the queue empty and changes nothing.
        #expect(try await e.engine.runCarrierPass().changed == 0)
        #expect(await e.state.requests(to: "/sms/3/reports").count == 2)
    }

    @Test func aReportLostBeforeItWasStoredIsRecoveredFromTheLogsAfterTheDeadline() async throws {
        let clock = ManualClock(Date())
        let e = try await EngineOnStandIn(clock: clock) { $0.reports = .reports; $0.reportDeadline = 600 }
        defer { e.cleanUp() }
        let answer = try await e.send(["lost-1"])
        // The report was collected by a process that died before storing it: the queue no longer has it.
        #expect(await e.state.takeReports(limit: 10, bulkId: nil, messageId: nil).count == 1)
        #expect(try await e.engine.runCarrierPass().changed == 0)
        #expect(await e.state.requests(to: "/sms/3/logs").isEmpty)
        clock.advance(by: 601)
        #expect(try await e.engine.runCarrierPass().changed == 1)
        #expect(try await e.client.deliveryInfos(bulkId: answer.bulkId).first?.deliveryStatus == .deliveredToTerminal)
        #expect(await e.state.requests(to: "/sms/3/logs").count == 1)
    }

    @Test func aPushedReportIsStoredOnceAndALateOneNeverMovesAFinalStatusBack() async throws {
        let e = try await EngineOnStandIn(configure: Self.reportsRoute)
        defer { e.cleanUp() }
        let answer = try await e.send(["p-1"])
        let sent = try #require(await e.state.sentInOrder.first)
        let sequence = StandInRoutes.reportSequence(sent, fate: .viaOperator)
        let atOperator = try Self.body(sequence[0]), atHandset = try Self.body(sequence[1])
        #expect(try await e.engine.storePushedReports(atHandset) == 1)
        #expect(try await e.engine.storePushedReports(atHandset) == 0)     // Infobip called again
        #expect(try await e.engine.storePushedReports(atOperator) == 0)    // the intermediate report, late
        #expect(try await e.client.deliveryInfos(bulkId: answer.bulkId).first?.deliveryStatus == .deliveredToTerminal)
        // A report of a message this deployment never sent is dropped; a body that is no report is refused.
        #expect(try await e.engine.storePushedReports(Data(#"{"results":[{"messageId":"nobody","status":{"groupId":3,"id":5}}]}"#.utf8)) == 0)
        await #expect(throws: CarrierReportsError.self) { try await e.engine.storePushedReports(Data("[1,2".utf8)) }
    }

    @Test func aReportThatComesBeforeTheSendAnswerIsKept() async throws {
        let e = try await EngineOnStandIn(configure: Self.reportsRoute)
        defer { e.cleanUp() }
        let answer = try await e.send(["early-1"])
        // As when the webhook call overtakes the stored hand-over answer: the message is still claimed.
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        let sent = try #require(await e.state.sentInOrder.first)
        #expect(try await e.engine.storePushedReports(Self.body(StandInRoutes.reportSequence(sent, fate: .delivered)[0])) == 1)
        _ = try await e.engine.runCarrierPass()
        #expect(try await e.client.deliveryInfos(bulkId: answer.bulkId).first?.deliveryStatus == .deliveredToTerminal)
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
    }

    @Test func withAWebhookEverySendAsksInfobipToPushReportsWithHeraldsIds() async throws {
        let e = try await EngineOnStandIn(configure: Self.reportsRoute)
        defer { e.cleanUp() }
        e.carrier.pushReports(to: URL(string: "https://invite.example.com/1/carriers/infobip/reports/t0ken")!)
        let answer = try await e.send(["w-1"])
        let body = try #require(await e.state.requests(to: "/sms/3/messages").first?.body)
        let request = try JSONDecoder().decode(InfobipSendRequest.self, from: body)
        let webhooks = try #require(request.messages.first?.webhooks)
        #expect(webhooks.delivery.url == "https://invite.example.com/1/carriers/infobip/reports/t0ken")
        #expect(webhooks.delivery.intermediateReport)
        #expect(webhooks.contentType == "application/json")
        let ids = try #require(webhooks.callbackData.flatMap(InfobipCarrier.heraldIds))
        #expect(ids.bulkId == answer.bulkId && ids.messageId == "w-1")
        // Reports now come pushed: the queue is not collected.
        _ = try await e.engine.runCarrierPass()
        #expect(await e.state.requests(to: "/sms/3/reports").isEmpty)
    }

    @Test func theBudgetKeepsLookUpsUnderInfobipsLimitAndTheStandInRefusesWhatGoesOver() async throws {
        // Infobip (the stand-in) takes 3 logs requests a minute. Herald with a budget of 3 defers the fourth look-up to
        // a later pass instead of asking; with a budget above the limit it meets Infobip's own E429.
        for (budget, expectRefusal) in [(3, false), (120, true)] {
            let state = StandInState()
            await state.setLogsPerMinute(3)
            let e = try await EngineOnStandIn(state: state) { $0.logsPerMinute = budget; $0.attempts = 1 }
            defer { e.cleanUp() }
            for i in 0..<4 {
                let answer = try await e.send(["budget-\(budget)-\(i)"])
                try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
                _ = try? await e.engine.runCarrierPass()
            }
            let logs = await e.state.requests(to: "/sms/3/logs")
            let refused = logs.filter { $0.status == 429 }
            #expect(refused.isEmpty != expectRefusal, "budget \(budget): \(logs.map(\.status))")
            #expect(logs.filter { $0.status == 200 }.count == 3)
            #expect(await e.state.requests(to: "/sms/3/messages").count == 4, "nothing was posted twice")
        }
    }

    @Test func oneBudgetHoldsEveryLogsRequestToTheMinute() async throws {
        let clock = ManualClock(Date())
        let budget = RequestBudget(perMinute: 3, clock: { clock.now() })
        let waits = InfobipBackoffTests.Waits()
        let sleep: @Sendable (Double) async throws -> Void = { seconds in waits.add(seconds); clock.advance(by: seconds) }
        for _ in 0..<3 { try await budget.take(maxWait: 120, sleep: sleep) }
        #expect(waits.values.isEmpty)
        clock.advance(by: 20)
        try await budget.take(maxWait: 120, sleep: sleep)
        #expect(waits.values == [40])
        for _ in 0..<2 { try await budget.take(maxWait: 120, sleep: sleep) }
        #expect(waits.values == [40])
        // A wait longer than allowed is Infobip's own 429, for the pass to defer.
        await #expect(throws: InfobipError.self) { try await budget.take(maxWait: 5, sleep: sleep) }
    }

    static func body(_ report: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["results": [report]])
    }
}
