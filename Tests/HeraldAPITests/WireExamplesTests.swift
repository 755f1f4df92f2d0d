import Foundation
import Testing
import HeraldCore
@testable import HeraldAPI

/// The literal JSON examples of docs/wire-protocols.md decode, and re-encode to equivalent JSON.
@Suite struct WireExamplesTests {
    func json(_ text: String) -> Data { Data(text.utf8) }

    /// Compares two JSON documents structurally.
    func sameJSON(_ a: Data, _ b: Data) throws -> Bool {
        let x = try JSONSerialization.jsonObject(with: a) as? NSObject
        let y = try JSONSerialization.jsonObject(with: b) as? NSObject
        return x != nil && x == y
    }

    @Test func sendInvitationBody() throws {
        let text = """
        {"messageKey": "<message id>", "sender": "<sender id>",
         "recipients": {"destinations": [{"address": "385981234567", "messageId": "<client id>",
                                          "clientData": ["Ana", "Marko", "custom text"]}]}}
        """
        let body = try HeraldJSON.decode(SendInvitationBody.self, from: json(text))
        #expect(body.messageKey == "<message id>")
        #expect(body.sender == "<sender id>")
        #expect(body.recipients.destinations == [.init(address: "385981234567", messageId: "<client id>",
                                                        clientData: ["Ana", "Marko", "custom text"])])
        #expect(try sameJSON(HeraldJSON.encode(body), json(text)))
    }

    @Test func sendInvitationResponse() throws {
        let text = """
        {"sendSmsResponse": {"bulkId": "b1", "deliveryInfoUrl": "/1/smsmessaging/outbound/requests/b1/deliveryInfos",
                             "responses": [{"messageId": "m1", "status": "MessageWaiting", "price": 0.01}]}}
        """
        let r = try HeraldJSON.decode(SendInvitationResponse.self, from: json(text))
        #expect(r.sendSmsResponse.bulkId == "b1")
        #expect(r.sendSmsResponse.responses.first?.status == .messageWaiting)
        #expect(r.sendSmsResponse.responses.first?.price == 0.01)
        #expect(try sameJSON(HeraldJSON.encode(r), json(text)))
    }

    @Test func applicationMessage() throws {
        let text = """
        {"key": "<message id>", "clientMobileApplicationKey": "<app key>", "text": "Join me <>",
         "placeholder": "<>", "clientPlaceholder": "..."}
        """
        let m = try HeraldJSON.decode(ApplicationMessage.self, from: json(text))
        #expect(m == ApplicationMessage(key: "<message id>", clientMobileApplicationKey: "<app key>",
                                        text: "Join me <>", placeholder: "<>", clientPlaceholder: "..."))
        #expect(try sameJSON(HeraldJSON.encode(m), json(text)))
    }

    @Test func deliveryInfos() throws {
        let text = """
        {"deliveryInfoList": {"resourceURL": "...",
          "deliveryInfo": [{"address": "385981234567", "messageId": "...", "clientCorrelator": "<bulkId>",
                            "deliveryStatus": "DeliveredToTerminal", "price": 0.01}]}}
        """
        let r = try HeraldJSON.decode(DeliveryInfosResponse.self, from: json(text))
        let info = try #require(r.deliveryInfoList.deliveryInfo.first)
        #expect(info.address == "385981234567")
        #expect(info.clientCorrelator == "<bulkId>")
        #expect(info.deliveryStatus == .deliveredToTerminal)
        #expect(try sameJSON(HeraldJSON.encode(r), json(text)))
    }

    @Test func misspelledStatusIsAcceptedButNeverWritten() throws {
        let text = #"{"address": "1", "deliveryStatus": "DeleveredToNetwork"}"#
        let info = try HeraldJSON.decode(DeliveryInfo.self, from: json(text))
        #expect(info.deliveryStatus == .deliveredToNetwork)
        let out = String(decoding: try HeraldJSON.encode(info), as: UTF8.self)
        #expect(out.contains("\"DeliveredToNetwork\""))
        #expect(!out.contains("Delevered"))
    }

    @Test func unknownStatusDecodesAsUnknown() throws {
        let info = try HeraldJSON.decode(DeliveryInfo.self, from: json(#"{"address": "1", "deliveryStatus": "Teleported"}"#))
        #expect(info.deliveryStatus == .unknown)
    }

    @Test func deliveryInfoNotification() throws {
        let text = """
        {"deliveryInfoNotification": {"deliveryInfo":
        {"address": "tel:385981234567", "deliveryStatus": "DeliveryImpossible"}, "callbackData": "cb"}}
        """
        let n = try HeraldJSON.decode(DeliveryInfoNotification.self, from: json(text))
        #expect(n.deliveryInfoNotification.deliveryInfo.address == "tel:385981234567")
        #expect(n.deliveryInfoNotification.deliveryInfo.deliveryStatus == .deliveryImpossible)
        #expect(n.deliveryInfoNotification.callbackData == "cb")
        #expect(try sameJSON(HeraldJSON.encode(n), json(text)))
    }

    @Test func inboxResponse() throws {
        let text = """
        {"countTotal": 10, "countUnread": 5, "countTotalFiltered": 3, "countUnreadFiltered": 1,
         "messages": [{"messageId": "793fd94e-...", "silent": false,
           "aps": {"alert": {"title": "Welcome", "body": "Your friend joined"}},
           "internalData": {"sendDateTime": 1643314503233, "inbox": {"seen": true, "topic": "promo"}}}]}
        """
        let r = try HeraldJSON.decode(InboxResponse.self, from: json(text))
        #expect(r.countTotal == 10 && r.countUnread == 5 && r.countTotalFiltered == 3 && r.countUnreadFiltered == 1)
        let m = try #require(r.messages.first)
        #expect(m.title == "Welcome" && m.body == "Your friend joined" && m.topic == "promo" && m.seen)
        #expect(m.sendDateTime == 1_643_314_503_233)
        #expect(m.sendDate.epochMilliseconds == 1_643_314_503_233)
        let core = m.inboxMessage
        #expect(core.topic == "promo" && core.seen && core.sendDateTime.epochMilliseconds == 1_643_314_503_233)
        #expect(InboxWireMessage(core) == m)
        #expect(r.counts == InboxCounts(total: 10, unread: 5, totalFiltered: 3, unreadFiltered: 1))
        #expect(try sameJSON(HeraldJSON.encode(r), json(text)))
    }

    @Test func seenBody() throws {
        let text = #"{"externalUserId": "user1", "messages": [{"messageId": "1", "timestampDelta": 0, "inbox": true}]}"#
        let b = try HeraldJSON.decode(SeenBody.self, from: json(text))
        #expect(b == SeenBody(externalUserId: "user1", messages: [.init(messageId: "1", timestampDelta: 0)]))
        #expect(try sameJSON(HeraldJSON.encode(b), json(text)))
    }

    @Test func seenDeltaIsWholeSecondsBetweenSeeingAndReporting() {
        let seen = Date(epochMilliseconds: 1_000_000)
        #expect(SeenBody.SeenMessage(messageId: "x", seenAt: seen, reportedAt: seen.addingTimeInterval(90.7)).timestampDelta == 90)
        #expect(SeenBody.SeenMessage(messageId: "x", seenAt: seen, reportedAt: seen.addingTimeInterval(0.3)).timestampDelta == 0)
        #expect(SeenBody.SeenMessage(messageId: "x", seenAt: seen, reportedAt: seen.addingTimeInterval(-30)).timestampDelta == 0)
    }

    @Test func errorEnvelope() throws {
        let text = """
        {"requestError": {"serviceException": {"messageId": "UNAUTHORIZED", "text": "Invalid login details",
                                               "validationErrors": {"field": ["must not be empty"]}}}}
        """
        let e = try HeraldJSON.decode(ErrorEnvelope.self, from: json(text))
        #expect(e.exception?.messageId == "UNAUTHORIZED")
        #expect(e.exception?.validationErrors == ["field": ["must not be empty"]])
        #expect(try sameJSON(HeraldJSON.encode(e), json(text)))
    }
}
