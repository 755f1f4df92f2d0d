import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct DeliveryInfosTests {
    @Test func literalJSONOfABulk() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bulk = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "d-1")])
        let r = await h.raw(.get, "/1/smsmessaging/outbound/requests/\(bulk.bulkId)/deliveryInfos", auth: "App \(h.creds.secret)")
        #expect(r.status == 200)
        let list = jsonObject(r.body)["deliveryInfoList"] as? [String: Any]
        #expect(list?["resourceURL"] as? String == "/1/smsmessaging/outbound/requests/\(bulk.bulkId)/deliveryInfos")
        let info = (list?["deliveryInfo"] as? [[String: Any]])?.first
        #expect(info?["address"] as? String == Numbers.croatianMobile)
        #expect(info?["messageId"] as? String == "d-1")
        #expect(info?["clientCorrelator"] as? String == bulk.bulkId)
        #expect(info?["deliveryStatus"] as? String == "MessageWaiting")
        #expect(info?["price"] as? Double == bulk.responses.first?.price)
    }

    @Test func unknownBulkIsNotFoundWithTheProtocolText() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = await h.raw(.get, "/1/smsmessaging/outbound/requests/nope/deliveryInfos", auth: "App \(h.creds.secret)")
        #expect(r.status == 404)
        let ex = (jsonObject(r.body)["requestError"] as? [String: Any])?["serviceException"] as? [String: Any]
        #expect(ex?["messageId"] as? String == "NOT_FOUND")
        #expect(ex?["text"] as? String == "Message not found for specified request ID")
    }

    @Test func anotherApplicationsBulkIsNotFound() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bulk = try await h.invite([.init(address: Numbers.croatianMobile)])
        let other = try await h.engine.createApplication(name: "other")
        await #expect(throws: APIError.notFound(GetDeliveryInfos.unknownBulkText)) {
            try await h.call(GetDeliveryInfos(secret: other.secret, bulkId: bulk.bulkId))
        }
        await #expect(throws: APIError.unauthorized) { try await h.call(GetDeliveryInfos(secret: "x", bulkId: bulk.bulkId)) }
    }
}
