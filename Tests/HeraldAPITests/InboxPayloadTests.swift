import Foundation
import Testing
@testable import HeraldAPI

/// Inbox messages read as Mobile Messaging really writes them, and written the same way.
@Suite struct InboxPayloadTests {
    func decode(_ text: String) throws -> InboxResponse {
        try JSONDecoder().decode(InboxResponse.self, from: Data(text.utf8))
    }

    @Test func aMessageWithNoSeenFlagIsUnseenAndUnknownFieldsAreIgnored() throws {
        let page = try decode("""
            {"countTotal": 1, "countUnread": 1, "messages": [{"messageId": "a", "aps": {"alert": {"title": "T", "body": "B"},
             "sound": "default", "badge": 2}, "internalData": {"sendDateTime": 1700000000000, "inbox": {"topic": "news"},
             "atts": [{"url": "https://example.com/x.png"}]}, "customPayload": {"k": "v"}}]}
            """)
        let m = try #require(page.messages.first)
        #expect(m.seen == false && m.silent == false)
        #expect(m.title == "T" && m.body == "B" && m.topic == "news" && m.sendDateTime == 1_700_000_000_000)
    }

    @Test func aSilentMessageCarriesItsTextInInternalData() throws {
        let page = try decode("""
            {"countTotal": 1, "countUnread": 0, "messages": [{"messageId": "s", "aps": {"content-available": 1},
             "internalData": {"sendDateTime": 1700000000000, "inbox": {"topic": "t", "seen": true},
             "silent": {"title": "Quiet", "body": "Hush", "sound": "default"}}}]}
            """)
        let m = try #require(page.messages.first)
        #expect(m.silent && m.seen)
        #expect(m.title == "Quiet" && m.body == "Hush")
        // Written back the way it came: no alert, the text under internalData.silent.
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(m)) as? [String: Any]
        #expect((written?["aps"] as? [String: Any])?["alert"] == nil)
        let silent = ((written?["internalData"] as? [String: Any])?["silent"] as? [String: Any])
        #expect(silent?["body"] as? String == "Hush")
        #expect(try JSONDecoder().decode(InboxWireMessage.self, from: JSONEncoder().encode(m)) == m)
    }

    @Test func aSilentMessageMayNestItsTextUnderAlert() throws {
        let page = try decode("""
            {"countTotal": 1, "countUnread": 1, "messages": [{"messageId": "n", "aps": {"content-available": 1},
             "internalData": {"sendDateTime": 1700000000000, "silent": {"badge": 6, "sound": "default",
             "alert": {"title": "Nested", "body": "Under alert"}}}}]}
            """)
        let m = try #require(page.messages.first)
        #expect(m.silent && !m.seen)
        #expect(m.title == "Nested" && m.body == "Under alert")
    }

    @Test func anAlertWrittenAsABareStringIsTheBody() throws {
        let page = try decode("""
            {"countTotal": 1, "countUnread": 1, "messages": [{"messageId": "b", "aps": {"alert": "Just text"},
             "internalData": {"sendDateTime": 1700000000000}}]}
            """)
        #expect(page.messages.first?.body == "Just text")
        #expect(page.messages.first?.title == nil)
    }
}
