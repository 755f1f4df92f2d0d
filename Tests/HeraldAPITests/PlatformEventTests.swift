import Foundation
import Testing
@testable import HeraldAPI

@Suite struct PlatformEventTests {
    @Test func knownTypesRoundTrip() throws {
        let events: [PlatformEvent] = [
            .deliveryChanged(bulkId: "b", deliveryInfo: [DeliveryInfo(address: "1", messageId: "m", clientCorrelator: "b",
                                                                      deliveryStatus: .deliveredToTerminal, price: 0.01)],
                             isDelta: false),
            .deliveryChanged(bulkId: "b2", deliveryInfo: [], isDelta: true, text: "Hi {RECEIVER_NAME}: <>", sentBy: "ana"),
            .inboxMessage(externalUserId: "u", message: InboxWireMessage(messageId: "i", title: "t", body: "b", topic: "promo",
                                                                      sendDateTime: 5, seen: false)),
            .linkClicked(ReferralLink(url: "https://herald.invalid/r/abc", code: "abc", clicks: 2)),
        ]
        let data = try HeraldJSON.encode(events)
        #expect(String(decoding: data, as: UTF8.self).contains(#""__type":"urn:herald:delivery:changed""#))
        #expect(try HeraldJSON.decode([PlatformEvent].self, from: data) == events)
    }

    @Test func unknownTypeIsNotFatal() throws {
        let text = #"[{"__type": "urn:inin.com:somethingNew", "x": 1}, {"no": "type"}, 3, {"__type": "urn:herald:link:clicked", "link": {"url": "u", "code": "c", "clicks": 1}}]"#
        let batch = try HeraldJSON.decode(PlatformEventBatch.self, from: Data(text.utf8))
        #expect(batch.events == [.unknown(type: "urn:inin.com:somethingNew"),
                                 .linkClicked(ReferralLink(url: "u", code: "c", clicks: 1))])
        #expect(batch.dropped == 2)
    }
}
