import Foundation
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Keys with one of the two scopes Herald needs: `platform check` names the missing one, a send with a key that may
/// not send fails its rows with the scope named (not "refused key"), and a key Infobip does not know is a refused key.
@Suite struct InfobipScopeTests {
    func check(key: String, state: StandInState) async throws -> [InfobipCheck.Finding] {
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        return await InfobipCheck.run(InfobipSettings(baseURL: url, apiKey: key, apiKeySource: "HERALD_INFOBIP_API_KEY",
                                                      mobileBaseURL: url, applicationCode: state.applicationCode))
    }

    func finding(_ findings: [InfobipCheck.Finding], _ subject: String) -> InfobipCheck.Finding? {
        findings.first { $0.subject.hasPrefix(subject) }
    }

    @Test func platformCheckProbesSendingAndLogsApartAndNamesTheMissingScope() async throws {
        let state = StandInState()
        await state.addKey("send-only", scopes: ["sms:message:send"])
        await state.addKey("logs-only", scopes: ["sms:logs:read"])
        let all = try await check(key: state.apiKey, state: state)
        #expect(finding(all, "SMS sending")?.ok == true && finding(all, "SMS logs")?.ok == true)
        #expect(finding(all, "SMS scheduled bulks")?.ok == true)

        let sendOnly = try await check(key: "send-only", state: state)
        #expect(finding(sendOnly, "SMS sending")?.ok == true)
        let logs = try #require(finding(sendOnly, "SMS logs"))
        #expect(!logs.ok)
        #expect(logs.detail.contains("lacks a scope") && logs.detail.contains("sms:logs:read"))
        #expect(!logs.detail.contains("refused"))
        // A send-only key sends held sends, but taking one back or moving it needs sms:manage: said before it matters.
        let bulks = try #require(finding(sendOnly, "SMS scheduled bulks"))
        #expect(!bulks.ok && bulks.detail.contains("sms:manage"), "\(bulks)")

        let logsOnly = try await check(key: "logs-only", state: state)
        #expect(finding(logsOnly, "SMS logs")?.ok == true)
        let sending = try #require(finding(logsOnly, "SMS sending"))
        #expect(!sending.ok && sending.detail.contains("sms:message:send"))
        // Probing sends nothing.
        #expect(await state.sentInOrder.isEmpty)

        let unknown = try await check(key: "nobody", state: state)
        #expect(finding(unknown, "SMS sending")?.detail.contains("the Infobip API key was refused") == true)
    }

    @Test func withJWTTheInboxIsProbedWithAUsersTokenAndARefusedCodeNamesTheSandboxLimit() async throws {
        let state = StandInState()
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        let settings = InfobipSettings(baseURL: url, apiKey: state.apiKey, mobileBaseURL: url, applicationCode: state.applicationCode)
        let withJWT = await InfobipCheck.run(settings, inboxToken: { user in "jwt-for-\(user)" })
        let inbox = try #require(finding(withJWT, "Mobile Messaging"))
        #expect(inbox.ok && inbox.detail.contains("JWT"))
        let asked = try #require(await state.requests(to: "/mobile/1/user/").last)
        #expect(asked.headers["authorization"] == "Bearer jwt-for-\(InfobipCheck.probeUser)")
        // A code the application does not have: the fix says what the bare code can and cannot open.
        var wrong = settings
        wrong.applicationCode = "not-the-code"
        let refused = try #require(finding(await InfobipCheck.run(wrong), "Mobile Messaging"))
        #expect(!refused.ok && refused.fix?.contains("sandbox") == true)
    }

    @Test func aSendWithAKeyThatMayNotSendFailsItsRowsNamingTheScope() async throws {
        let state = StandInState()
        await state.addKey("logs-only", scopes: ["sms:logs:read"])
        let e = try await InfobipFailureTests.EngineOnStandIn(state: state, apiKey: "logs-only")
        defer { e.cleanUp() }
        let answer = try await e.send(["s-1"])
        let response = try #require(answer.responses.first)
        #expect(response.status == .rejected)
        #expect(response.reason?.contains("sms:message:send") == true)
        #expect(await state.sentInOrder.isEmpty)
    }
}
