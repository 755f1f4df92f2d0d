import Foundation
import HeraldAPI
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// A carrier that answers 429 with an absurd `Retry-After` (the stand-in as a hostile Infobip): `platform check` reports
/// it and a send leaves its messages waiting, with the wait clamped to an hour; nothing traps.
@Suite struct InfobipRetryAfterTests {
    static let hostile = ["1e20", "inf", "99999999999999999999", "nan", "-5"]

    @Test(arguments: hostile) func platformCheckReportsAHostileRetryAfterInsteadOfCrashing(_ value: String) async throws {
        let state = StandInState()
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        await state.fail("/sms/3/", status: 429, headers: ["Retry-After": value],
                         body: #"{"errorCode":"E429","description":"Too many requests sent."}"#, times: 10)
        let findings = await InfobipCheck.run(InfobipSettings(baseURL: url, apiKey: state.apiKey, apiKeySource: "HERALD_INFOBIP_API_KEY",
                                                              mobileBaseURL: url, applicationCode: state.applicationCode))
        let sending = try #require(findings.first { $0.subject.hasPrefix("SMS sending") })
        #expect(!sending.ok)
        // Too large: an hour at most. Negative or unreadable: no wait of Infobip's (the check itself waits for nothing).
        let said = ["nan", "-5"].contains(value) ? "try again in 0 s" : "try again in 3600 s"
        #expect(sending.detail == "Infobip asks to slow down: \(said)", "\(value): \(sending.detail)")
    }

    @Test(arguments: ["1e20", "inf"]) func aSendToldToWaitForEverIsLeftWaitingNotCrashed(_ value: String) async throws {
        let e = try await InfobipFailureTests.EngineOnStandIn()
        defer { e.cleanUp() }
        await e.state.fail("/sms/3/messages", status: 429, headers: ["Retry-After": value])
        let answer = try await e.send(["h-1"])
        #expect(answer.responses.first?.status == .messageWaiting)
        #expect(await e.state.sentInOrder.isEmpty)
    }

    @Test func infobipsOwnRetryAfterReaderIsTheClampedOne() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(InfobipHTTP.retryAfter("1e20", now: now) == RetryAfter.maxSeconds)
        #expect(InfobipHTTP.retryAfter("inf", now: now) == RetryAfter.maxSeconds)
        #expect(InfobipHTTP.retryAfter("nan", now: now) == nil)
        #expect(InfobipError.rateLimited(retryAfter: .infinity).description == "Infobip asks to slow down: try again in 3600 s")
    }
}
