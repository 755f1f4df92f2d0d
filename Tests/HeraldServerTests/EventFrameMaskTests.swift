import Foundation
import HeraldAPI
@testable import HeraldServer
import NIOCore
import Testing

/// An event-stream frame as a viewer under `--mask-numbers-for-viewers` receives it: the same id and type, the
/// event's numbers masked, and an event it cannot read reduced to its type, never passed on whole.
@Suite struct EventFrameMaskTests {
    /// A delivery change as the wire has it.
    struct Change: Decodable {
        var type: String
        var bulkId: String
        var deliveryInfo: [DeliveryInfo]
        enum CodingKeys: String, CodingKey { case type = "__type", bulkId, deliveryInfo }
    }

    func frame(id: Int64, type: String, data: String) -> ByteBuffer {
        ByteBuffer(string: "id: \(id)\nevent: \(type)\ndata: \(data)\n\n")
    }

    @Test func aDeliveryChangeKeepsItsIdTypeAndStatesWithItsNumbersMasked() throws {
        let event = PlatformEvent.deliveryChanged(bulkId: "b-1", deliveryInfo: [
            DeliveryInfo(address: "385981234567", messageId: "m-1", clientCorrelator: "b-1", deliveryStatus: .deliveredToTerminal, price: 0.01),
            DeliveryInfo(address: "ana@example.com", messageId: "m-2", clientCorrelator: "b-1", deliveryStatus: .deliveryImpossible,
                         price: nil, reason: "mailbox +385981234567 full"),
        ], isDelta: true, text: "Hi")
        let json = String(decoding: try HeraldJSON.encode(event), as: UTF8.self)
        let masked = String(buffer: EventFrameMask.masked(frame(id: 42, type: PlatformEvent.deliveryChangedType, data: json)))
        #expect(masked.hasPrefix("id: 42\nevent: \(PlatformEvent.deliveryChangedType)\ndata: "))
        #expect(masked.hasSuffix("\n\n"))
        #expect(!masked.contains("385981234567") && !masked.contains("ana@example.com"), "\(masked)")
        let data = try #require(masked.split(separator: "\n").first { $0.hasPrefix("data: ") }).dropFirst(6)
        let change = try HeraldJSON.decode(Change.self, from: Data(data.utf8))
        let infos = change.deliveryInfo
        #expect(change.bulkId == "b-1")
        #expect(change.type == PlatformEvent.deliveryChangedType)
        #expect(infos.map(\.address) == ["+385 98 ••• 4567", "a•••@example.com"])
        #expect(infos.map(\.deliveryStatus) == [.deliveredToTerminal, .deliveryImpossible])
        #expect(infos.map(\.messageId) == ["m-1", "m-2"])
        #expect(infos[1].reason == "mailbox +385 98 ••• 4567 full")
    }

    @Test func anEventItCannotReadGoesAsItsTypeAlone() {
        let masked = String(buffer: EventFrameMask.masked(frame(id: 7, type: "urn:herald:delivery:changed",
                                                                data: #"{"__type":"urn:herald:delivery:changed","deliveryInfo":"385981234567"}"#)))
        #expect(masked == "id: 7\nevent: urn:herald:delivery:changed\ndata: {\"__type\":\"urn:herald:delivery:changed\"}\n\n", "\(masked)")
    }
}
