import Foundation
import HeraldCore
import Testing
@testable import HeraldAPI

/// The conversation wire: the two reply events travel under their `__type` and come back equal; an older client's
/// batch keeps reading when they arrive; the endpoints build the paths and queries the engine reads; numbers are
/// masked for viewers.
@Suite struct ConversationWireTests {
    static let reply = ReplyWire(messageId: "in-1", from: "385981234567", to: "385911000000", text: "yes, see you there",
                                 receivedAt: "2026-11-28T07:00:00.000Z", price: 0.01, currency: "EUR", seen: false, bulkId: "b1",
                                 invitationMessageId: "m1", optedOut: false)

    @Test func replyEventsRoundTripUnderTheirTypes() throws {
        let received = PlatformEvent.replyReceived(Self.reply)
        let seen = PlatformEvent.conversationSeen(number: "385981234567", unread: 0, unreadTotal: 3)
        for event in [received, seen] {
            let data = try HeraldJSON.encode(event)
            #expect(try HeraldJSON.decode(PlatformEvent.self, from: data) == event)
        }
        let text = String(decoding: try HeraldJSON.encode(seen), as: UTF8.self)
        #expect(text.contains(#""__type":"urn:herald:reply:seen""#) && text.contains(#""unreadTotal":3"#), "\(text)")
        // A batch with a reply event, a broken one and one this build does not know: nothing fails.
        let batch = try HeraldJSON.decode(PlatformEventBatch.self, from: Data("""
            [\(String(decoding: try HeraldJSON.encode(received), as: UTF8.self)),
             {"__type": "urn:herald:reply:received", "reply": {"from": 1}},
             {"__type": "urn:herald:reply:forwarded"}]
            """.utf8))
        #expect(batch.events == [received, .unknown(type: "urn:herald:reply:forwarded")] && batch.dropped == 1)
    }

    @Test func aThreadEntryReadsAnyStatusSpellingAndKeepsItsKind() throws {
        let entry = try HeraldJSON.decode(ThreadEntry.self, from: Data("""
            {"kind": "sent", "messageId": "m1", "at": "2026-11-28T07:00:00.000Z", "text": "Join me", "status": "DeleveredToNetwork"}
            """.utf8))
        #expect(entry.kind == .sent && entry.status == .deliveredToNetwork && entry.seen == nil)
        let back = String(decoding: try HeraldJSON.encode(entry), as: UTF8.self)
        #expect(back.contains(#""status":"DeliveredToNetwork""#), "\(back)")
    }

    @Test func endpointsCarryTheNumberAsDigitsAndTheirQuery() throws {
        let before = try #require(WireTime.date("2026-11-28T07:00:00.000Z"))
        let list = try ListConversations(secret: "s", filter: ConversationFilter(unreadOnly: true, from: "+385 98 123 4567",
                                                                                 before: before, limit: 50)).request()
        #expect(list.path == "/1/social-invite/conversations")
        #expect(list.query == ["unread": "true", "from": "385981234567", "before": "2026-11-28T07:00:00.000Z", "limit": "50"])
        let thread = try GetConversation(secret: "s", number: "+385981234567", limit: 1000).request()
        #expect(thread.path == "/1/social-invite/conversations/385981234567" && thread.query == ["limit": "1000"])
        let seen = try MarkConversationSeen(secret: "s", number: "385981234567", upTo: "in-1").request()
        #expect(seen.method == .post && seen.path == "/1/social-invite/conversations/385981234567/seen")
        #expect(try HeraldJSON.decode(MarkSeenBody.self, from: seen.body ?? Data()) == MarkSeenBody(upTo: "in-1"))
        #expect(ConversationNumber.wire("12a") == nil && ConversationNumber.wire("+1234567890123456") == nil)
    }

    @Test func aViewerReadsTheNumbersMasked() {
        let masked = Self.reply.maskingNumbers()
        #expect(masked.from == PersonalDataMask.mask("385981234567") && masked.from.contains("•••"))
        #expect(masked.messageId == "in-1" && masked.bulkId == "b1" && masked.text == "yes, see you there")
        guard case .conversationSeen(let number, _, let total) = PlatformEvent.conversationSeen(number: "385981234567", unread: 0,
                                                                                             unreadTotal: 2).maskingNumbers() else {
            Issue.record("not a seen mark")
            return
        }
        #expect(!number.contains("1234567") && total == 2)
    }
}
