import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
@testable import HeraldEngine
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// What goes wrong with Infobip, against the stand-in: a crash between hand-over and answer, a refused key,
/// invalid requests in both error envelopes, 429 and 5xx.
@Suite struct InfobipFailureTests {
    /// An engine on a fresh file whose carrier is Infobip at the stand-in, with its sandbox application.
    struct EngineOnStandIn {
        let engine: PlatformEngine
        let client: PlatformClient
        let folder: TempDir
        var dir: URL { folder.url }
        let state: StandInState
        let server: Task<Void, any Error>
        let carrier: InfobipCarrier

        init(state: StandInState = StandInState(), apiKey: String? = nil, clock: any HeraldClock = SystemClock(),
             configure: (inout InfobipSettings) -> Void = { _ in }) async throws {
            folder = try TempDir("infobip")
            self.state = state
            let (url, task) = try await InfobipStandIn.start(state: state)
            server = task
            var settings = InfobipSettings(baseURL: url, apiKey: apiKey ?? state.apiKey, apiKeySource: "[infobip] api_key in config.toml",
                                           reportInterval: 0, attempts: 3, maxRetryWait: 2)
            configure(&settings)
            let platform = InfobipPlatform(settings: settings)
            carrier = InfobipCarrier(settings: settings, sleep: { _ in })
            engine = try PlatformEngine.open(at: folder.file("engine.sqlite"), clock: clock, config: platform.engine,
                                             carrier: carrier)
            client = try await EmbeddedPlatform.sandboxClient(engine: engine)
        }

        func cleanUp() {
            server.cancel()
        }

        func send(_ ids: [String]) async throws -> SendInvitationResponse.SendSmsResponse {
            let settings = try await client.applicationSettings()
            let key = try #require(settings.defaultMessageKey)
            return try await client.sendInvitation(SendInvitationBody(
                messageKey: key, sender: "Herald",
                destinations: ids.enumerated().map {
                    .init(address: String(InfobipHarness.mobile($0.offset).dropFirst()), messageId: $0.element)
                }))
        }
    }

    @Test func aSendInterruptedAfterInfobipTookItIsReconciledByMessageIdNotSentTwice() async throws {
        let e = try await EngineOnStandIn()
        defer { e.cleanUp() }
        // The stand-in takes the first request but its answer never arrives (the process "dies").
        let answer = try await e.send(["m-1", "m-2"])
        #expect(await e.state.sentInOrder.count == 2)
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        let pass = try await e.engine.runCarrierPass()
        #expect(pass.handed == 2)
        #expect(await e.state.sentInOrder.count == 2)
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
        let lookups = await e.state.requests(to: "/sms/3/logs")
        #expect(lookups.first.map { Set($0.values("messageId")) } == ["m-1", "m-2"])
    }

    @Test func aLostAnswerIsNeverRepeatedAndAMessageInfobipNeverShowsIsUncertainAfterTheGracePeriod() async throws {
        let clock = ManualClock(Date())
        let e = try await EngineOnStandIn(clock: clock)
        defer { e.cleanUp() }
        // Infobip never got the request, but Herald cannot know: a 503 is a lost answer, not a refusal.
        await e.state.fail("/sms/3/messages", status: 503)
        let answer = try await e.send(["n-1"])
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
        // Its lease runs out: it is looked up, not found, and not sent again within the grace period.
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        _ = try await e.engine.runCarrierPass()
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
        #expect(await e.state.sentInOrder.isEmpty)
        #expect(try await e.client.deliveryInfos(bulkId: answer.bulkId).first?.deliveryStatus.isFinal == false)
        // After the grace period it is uncertain, with the reason, and still never posted twice.
        clock.advance(by: 11 * 60)
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        _ = try await e.engine.runCarrierPass()
        let info = try #require(try await e.client.deliveryInfos(bulkId: answer.bulkId).first)
        #expect(info.deliveryStatus == .deliveryUncertain)
        #expect(info.reason?.contains("not found at Infobip") == true)
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
    }

    @Test func anAnswerLostAfterInfobipAcceptedIsFoundInTheLogsAndNeverPostedAgain() async throws {
        let e = try await EngineOnStandIn()
        defer { e.cleanUp() }
        await e.state.fail("/sms/3/messages", status: 502, afterProcessing: true)
        let answer = try await e.send(["a-1", "a-2"])
        #expect(await e.state.sentInOrder.map(\.messageId) == ["a-1", "a-2"])
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        let pass = try await e.engine.runCarrierPass()
        #expect(pass.handed == 2)
        #expect(await e.state.requests(to: "/sms/3/messages").count == 1)
        #expect(await e.state.sentInOrder.count == 2)
    }

    @Test func aRefusedKeyFailsTheRowsWithAReasonThatSaysWhereTheKeyIsSet() async throws {
        let e = try await EngineOnStandIn(apiKey: "wrong")
        defer { e.cleanUp() }
        let answer = try await e.send(["k-1"])
        let response = try #require(answer.responses.first)
        #expect(response.status == .rejected)
        let reason = try #require(response.reason)
        #expect(reason.contains("the Infobip API key was refused"))
        #expect(reason.contains("[infobip] api_key in config.toml"))
        #expect(!reason.contains("wrong"))
        // Nothing waits to be sent again with the same key.
        #expect(try await e.engine.runCarrierPass().handed == 0)
    }

    @Test func bothErrorEnvelopesNameTheFieldThatIsWrong() throws {
        let v3 = #"{"errorCode":"E400","description":"Request cannot be processed.","action":"Check the syntax, violations and adjust the request.","violations":[{"property":"messages[0].sender","violation":"must not be blank"}],"resources":[]}"#
        let flat = try #require(InfobipErrorEnvelope.parse(Data(v3.utf8)))
        #expect(flat.code == "E400")
        #expect(flat.summary.contains("messages[0].sender: must not be blank"))
        let old = #"{"requestError":{"serviceException":{"messageId":"BAD_REQUEST","text":"Bad request","validationErrors":{"to":["may not be null"]}}}}"#
        let legacy = try #require(InfobipErrorEnvelope.parse(Data(old.utf8)))
        #expect(legacy.code == "BAD_REQUEST")
        #expect(legacy.summary == "Bad request — to: may not be null")
        #expect(InfobipErrorEnvelope.parse(Data("<html>".utf8)) == nil)
    }

    @Test func aViolationRejectsTheRowsWithTheFieldNamed() async throws {
        let e = try await EngineOnStandIn()
        defer { e.cleanUp() }
        await e.state.fail("/sms/3/messages", status: 400, body: #"{"errorCode":"E400","description":"Request cannot be processed.","violations":[{"property":"messages[0].destinations[0].to","violation":"is not a valid number"}]}"#)
        let answer = try await e.send(["v-1"])
        #expect(answer.responses.first?.status == .rejected)
        #expect(answer.responses.first?.reason?.contains("messages[0].destinations[0].to: is not a valid number") == true)
    }

    @Test func aRequestRefusedPartWayFailsItsMessagesAndKeepsWhatWentOut() async throws {
        let state = StandInState()
        let tempDir = try TempDir("infobip")
        let dir = tempDir.url
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        var settings = InfobipSettings(baseURL: url, apiKey: state.apiKey, reportInterval: 0, maxMessagesPerRequest: 2, attempts: 1)
        settings.requestsInFlight = 1       // the fault must meet the second request
        let engine = try PlatformEngine.open(at: dir.appendingPathComponent("engine.sqlite"),
                                             config: InfobipPlatform(settings: settings).engine,
                                             carrier: InfobipCarrier(settings: settings, sleep: { _ in }))
        let client = try await EmbeddedPlatform.sandboxClient(engine: engine)
        await state.fail("/sms/3/messages", status: 400, body: #"{"errorCode":"E400","description":"Request cannot be processed.","violations":[{"property":"messages[1].content.text","violation":"too long"}]}"#, skip: 1)
        let key = try #require(try await client.applicationSettings().defaultMessageKey)
        let answer = try await client.sendInvitation(SendInvitationBody(messageKey: key, sender: "Herald", destinations: (0..<4).map {
            .init(address: String(InfobipHarness.mobile($0).dropFirst()), messageId: "p-\($0)")
        }))
        #expect(answer.responses.map(\.status) == [.messageWaiting, .messageWaiting, .rejected, .rejected])
        #expect(answer.responses.last?.reason?.contains("messages[1].content.text: too long") == true)
        #expect(await state.sentInOrder.map(\.messageId) == ["p-0", "p-1"])
        #expect(try await engine.runCarrierPass().handed == 0)
    }

    @Test func requestsInFlightTogetherKeepTheRulesOfOneAtATime() async throws {
        let clock = ManualClock(Date())
        let e = try await EngineOnStandIn(clock: clock) { $0.maxMessagesPerRequest = 2; $0.attempts = 1; $0.requestsInFlight = 2 }
        defer { e.cleanUp() }
        // Three requests of two; one of the first two (both in flight at once) is answered 503 without being carried out.
        await e.state.fail("/sms/3/messages", status: 503, skip: 1)
        let ids = (0..<6).map { "w-\($0)" }
        _ = try await e.send(ids)
        #expect(await e.state.requests(to: "/sms/3/messages").count == 2, "the third request waits for the first two")
        let accepted = Set(await e.state.sentInOrder.map(\.messageId))
        #expect(accepted.count == 2)
        let lost = Set(ids.prefix(4)).subtracting(accepted)
        // After the lease: the lost request's messages are looked up (never posted again); the third request's, never
        // posted, are sent without a look-up.
        clock.advance(by: 121)
        _ = try await e.engine.runCarrierPass()
        let lookedUp = Set(await e.state.requests(to: "/sms/3/logs").flatMap { $0.values("messageId") })
        #expect(lookedUp == lost)
        #expect(Set(await e.state.sentInOrder.map(\.messageId)) == accepted.union(["w-4", "w-5"]))
        #expect(await e.state.requests(to: "/sms/3/messages").count == 3)
    }

    @Test func a429IsWaitedOutButASendAnswered5xxIsNotRepeated() async throws {
        let e = try await EngineOnStandIn()
        defer { e.cleanUp() }
        await e.state.fail("/sms/3/messages", status: 429, headers: ["Retry-After": "1"])
        await e.state.fail("/sms/3/messages", status: 502, afterProcessing: true)
        let answer = try await e.send(["r-1"])
        #expect(answer.responses.first?.status == .messageWaiting)
        #expect(await e.state.sentInOrder.map(\.messageId) == ["r-1"])
        #expect(await e.state.requests(to: "/sms/3/messages").map(\.status) == [429, 502])
    }

    @Test func aLongRetryAfterLeavesTheMessagesWaitingAndTheyAreSentNotLookedUpLater() async throws {
        let e = try await EngineOnStandIn()
        defer { e.cleanUp() }
        await e.state.fail("/sms/3/messages", status: 429, headers: ["Retry-After": "3600"])
        let answer = try await e.send(["w-1"])
        #expect(answer.responses.first?.status == .messageWaiting)
        #expect(await e.state.sentInOrder.isEmpty)
        // Infobip said to wait, so it was never posted: when it comes back it is sent, without a lookup.
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        _ = try await e.engine.runCarrierPass()
        #expect(await e.state.sentInOrder.map(\.messageId) == ["w-1"])
        #expect(await e.state.requests(to: "/sms/3/logs").allSatisfy { $0.values("messageId").isEmpty })
    }

    @Test func retryAfterIsReadAsSecondsOrAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(InfobipHTTP.retryAfter("7", now: now) == 7)
        #expect(InfobipHTTP.retryAfter("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
        #expect(InfobipHTTP.retryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(InfobipHTTP.retryAfter("soon", now: now) == nil)
        #expect(InfobipHTTP.retryAfter(nil, now: now) == nil)
    }
}

/// Infobip's published limit on `GET /sms/3/logs`: a multi-value filter's values, joined, at most 2,048 characters.
@Suite struct InfobipLogsFilterTests {
    @Test func filtersAreCutByJoinedLengthNotByCount() {
        let ids = (0..<300).map { "message-\(String(format: "%04d", $0))-\(String(repeating: "x", count: 20))" }
        let batches = InfobipCarrier.filterBatches(ids)
        #expect(batches.flatMap { $0 } == ids)
        #expect(batches.allSatisfy { $0.joined(separator: ",").count <= 2048 })
        #expect(batches.dropLast().allSatisfy { $0.joined(separator: ",").count > 2048 - 35 }, "each batch is as full as it can be")
        #expect(InfobipCarrier.filterBatches([]).isEmpty)
    }

    @Test func twoHundredLostAnswersAreLookedUpWithinTheLimitAndNeverPostedAgain() async throws {
        let e = try await InfobipFailureTests.EngineOnStandIn()
        defer { e.cleanUp() }
        // 200 ids of 36 characters join to 7,399: one request the stand-in (as Infobip) would refuse.
        let ids = (0..<200).map { _ in UUID().uuidString.lowercased() }
        let answer = try await e.send(ids)
        #expect(await e.state.sentInOrder.count == 200)
        try await e.engine.markHandedWithoutAnswer(bulkId: answer.bulkId)
        let pass = try await e.engine.runCarrierPass()
        #expect(pass.handed == 200)
        let lookups = await e.state.requests(to: "/sms/3/logs").filter { !$0.values("messageId").isEmpty }
        #expect(lookups.count >= 4)
        #expect(lookups.allSatisfy { $0.status == 200 && $0.values("messageId").joined(separator: ",").count <= 2048 })
        #expect(await e.state.requests(to: "/sms/3/messages").count == 2)
    }
}

/// After Infobip's 48 hours of logs: a message last reported delivered to the operator stays "reached the network";
/// one never seen is uncertain, saying why.
@Suite struct InfobipLogsExpiryTests {
    @Test func deliveredToTheOperatorStaysReachedTheNetworkWhenTheLogsAreGone() async throws {
        let clock = ManualClock(Date())
        let state = StandInState()
        await state.setFate(.atOperator, for: String(InfobipHarness.mobile(0).dropFirst()))
        await state.setFate(.neverLogged, for: String(InfobipHarness.mobile(1).dropFirst()))
        let e = try await InfobipFailureTests.EngineOnStandIn(state: state, clock: clock)
        defer { e.cleanUp() }
        let answer = try await e.send(["op-1", "none-1"])
        clock.advance(by: 60)
        _ = try await e.engine.runCarrierPass()
        func status(_ id: String) async throws -> DeliveryInfo? {
            try await e.client.deliveryInfos(bulkId: answer.bulkId).first { $0.messageId == id }
        }
        #expect(try await status("op-1")?.deliveryStatus == .deliveredToNetwork)
        await state.expireLogs()
        clock.advance(by: 49 * 3600)
        _ = try await e.engine.runCarrierPass()
        let atOperator = try #require(try await status("op-1"))
        #expect(atOperator.deliveryStatus == .deliveredToNetwork)
        #expect(atOperator.reason == nil)
        let never = try #require(try await status("none-1"))
        #expect(never.deliveryStatus == .deliveryUncertain)
        #expect(never.reason?.contains("kept no log") == true)
    }
}
