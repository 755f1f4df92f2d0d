import Foundation
import HeraldAPI
import HeraldTestKit
import Testing

/// Ids, keys, placeholders, senders and topics refuse NUL and other control characters with a 400 naming the field;
/// message texts keep newline and tab only; a replayed messageId answers what it answered first.
@Suite struct ServerInputHygieneTests {
    func text(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func sendBody(_ s: ServerHarness, messageId: String, sender: String = "Herald") async throws -> Data {
        let messageKey = try await s.engine.credentials(applicationKey: s.applicationKey)?.messageKey ?? ""
        return try JSONEncoder().encode(SendInvitationBody(messageKey: messageKey, sender: sender, destinations: [
            .init(address: "385981234567", messageId: messageId),
        ]))
    }

    @Test func aNulInAMessageIdIs400AndAReplayAnswersItsFirstAnswer() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let invite = "/1/social-invite/invitation"
        let bad = try await s.raw(.post, invite, key: s.sender, body: try await sendBody(s, messageId: "id-1\u{0}tail"))
        #expect(bad.status == 400)
        #expect(text(bad).contains("recipients.destinations[0].messageId"))
        let first = try await s.raw(.post, invite, key: s.sender, body: try await sendBody(s, messageId: "id-1"))
        #expect(first.status == 200)
        let again = try await s.raw(.post, invite, key: s.sender, body: try await sendBody(s, messageId: "id-1"))
        #expect(again.status == 200)
        let one = try JSONDecoder().decode(SendInvitationResponse.self, from: first.body)
        let two = try JSONDecoder().decode(SendInvitationResponse.self, from: again.body)
        #expect(one.sendSmsResponse.bulkId == two.sendSmsResponse.bulkId)
        #expect(two.sendSmsResponse.responses.map(\.messageId) == ["id-1"])
        let escaped = try await s.raw(.post, invite, key: s.sender, body: try await sendBody(s, messageId: "x", sender: "Her\u{1B}ald"))
        #expect(escaped.status == 400)
        #expect(text(escaped).contains("sender"))
    }

    @Test func messageTextsKeepNewlineAndTabOnlyAndKeysAndPlaceholdersNoControls() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let path = "/1/social-invite/application/\(s.applicationKey)/message"
        func create(_ json: String) async throws -> APIResponse {
            try await s.raw(.post, path, key: s.sender, body: Data(json.utf8))
        }
        let nul = try await create(#"{"text": "Join\u0000 me <>", "placeholder": "<>"}"#)
        #expect(nul.status == 400)
        #expect(text(nul).contains("text"))
        let osc = try await create(#"{"text": "Join me <> \u001b]52;c;SGk=\u0007", "placeholder": "<>"}"#)
        #expect(osc.status == 400)
        let badKey = try await create(#"{"key": "k\u0007", "text": "Join me <>", "placeholder": "<>"}"#)
        #expect(badKey.status == 400)
        #expect(text(badKey).contains("key"))
        let badPlaceholder = try await create(#"{"text": "Join me <>", "placeholder": "<\u0000>"}"#)
        #expect(badPlaceholder.status == 400)
        #expect(text(badPlaceholder).contains("placeholder"))
        let fine = try await create(#"{"key": "MULTI", "text": "Line one\n\tline two <>", "placeholder": "<>"}"#)
        #expect(fine.status == 201)
        let topic = try await s.raw(.get, "/mobile/1/user/demo/inbox/apns/messages", key: s.viewer, query: ["messageTopic": "news\u{9B}"])
        #expect(topic.status == 400)
        #expect(text(topic).contains("messageTopic"))
        let user = try await s.raw(.get, "/mobile/1/user/de%00mo/inbox/apns/messages", key: s.viewer)
        #expect(user.status == 400)
    }
}
