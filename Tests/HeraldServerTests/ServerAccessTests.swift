import Foundation
import HeraldAPI
import HeraldTestKit
import Testing

/// Keys, roles and bad input on a real server: every refusal is the error envelope with the right status.
@Suite struct ServerAccessTests {
    func envelope(_ response: APIResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func aViewerWatchesButCannotSendAndOnlyAnAdminChangesSettings() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let sent = try await s.invite(3, key: s.sender)
        #expect(sent.responses.count == 3)
        // The viewer reads the same bulk...
        let infos = try await s.call(GetDeliveryInfos(secret: s.viewer, bulkId: sent.bulkId))
        #expect(infos.deliveryInfoList.deliveryInfo.count == 3)
        // ...but may not send.
        await #expect(throws: APIError.forbidden("a viewer key reads and watches; it cannot send, resend or change messages")) {
            _ = try await s.invite(1, key: s.viewer)
        }
        let settings = ApplicationSettingsBody(messageEditingAllowed: false)
        await #expect(throws: APIError.self) {
            _ = try await s.call(UpdateApplicationSettings(secret: s.sender, applicationKey: s.applicationKey, body: settings))
        }
        let changed = try await s.call(UpdateApplicationSettings(secret: s.admin, applicationKey: s.applicationKey, body: settings))
        #expect(changed.messageEditingAllowed == false)
        let session = try await s.call(GetServerSession(key: s.viewer))
        #expect(session.role == .viewer && session.applicationKey == s.applicationKey)
    }

    @Test func aRevokedOrWrongKeyIs401AndTheApplicationSecretIsNoServerKey() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let path = "/herald/1/session"
        #expect(try await s.raw(.get, path).status == 401)
        #expect(try await s.raw(.get, path, key: "hk_00").status == 401)
        let secret = try #require(try await s.engine.credentials(applicationKey: s.applicationKey)).secret
        #expect(try await s.raw(.get, path, key: secret).status == 401)
        #expect(try await s.raw(.get, path, key: s.viewer).status == 200)
        _ = try await s.engine.revokeServerKey("support")
        let refused = try await s.raw(.get, path, key: s.viewer)
        #expect(refused.status == 401)
        #expect(envelope(refused).contains("UNAUTHORIZED"))
    }

    @Test func badInputGetsTheEnvelopeAndNothingElse() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let invite = "/1/social-invite/invitation"
        let wrongType = try await s.raw(.post, invite, key: s.sender, body: Data(#"{"messageKey": 5}"#.utf8))
        #expect(wrongType.status == 400)
        #expect(envelope(wrongType).contains("messageKey"))
        let malformed = try await s.raw(.post, invite, key: s.sender, body: Data("{not json".utf8))
        #expect(malformed.status == 400)
        #expect(envelope(malformed).contains("BAD_REQUEST"))
        let big = try await s.raw(.post, invite, key: s.sender, body: Data(repeating: 0x61, count: (1 << 20) + 1))
        #expect(big.status == 413)
        #expect(envelope(big).contains("PAYLOAD_TOO_LARGE"))
        let unknown = try await s.raw(.get, "/no/such/route", key: s.sender)
        #expect(unknown.status == 404)
        #expect(try await s.raw(.get, "/no/such/route").status == 404)
        #expect(try await s.raw(.delete, invite, key: s.sender).status == 405)
        let badId = try await s.raw(.get, "/1/events", key: s.viewer, headers: ["Last-Event-ID": "yesterday"])
        #expect(badId.status == 400)
        for answer in [wrongType, malformed, big, unknown, badId] {
            let text = envelope(answer)
            #expect(text.hasPrefix(#"{"requestError""#), "\(text)")
            #expect(!text.contains("SELECT") && !text.contains("sqlite"))
        }
        #expect(try await s.raw(.get, "/health").status == 200)
        let metrics = String(decoding: try await s.raw(.get, "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"herald_requests_total{route="/1/social-invite/invitation",status="413"} 1"#))
        #expect(metrics.contains("herald_carrier_queue"))
    }
}
