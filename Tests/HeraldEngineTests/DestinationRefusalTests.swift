import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

/// A value of one destination that the platform refuses (a name with ESC from a card) rejects that destination alone,
/// with a reason naming the field; the others of the request are accepted. Request-level fields still fail the request.
@Suite struct DestinationRefusalTests {
    @Test func aClientDataWithEscapeRejectsItsDestinationAloneNamingTheField() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([
            .init(address: Numbers.croatianMobile, messageId: "a", clientData: ["Ana", "Marko"]),
            .init(address: "385915550001", messageId: "b", clientData: ["Ana", "Iv\u{1B}[31mo\u{7}"]),
            .init(address: Numbers.croatianMobile2, messageId: "c", clientData: ["Ana", "Mia"]),
        ])
        #expect(r.responses.map(\.messageId) == ["a", "b", "c"])
        #expect(r.responses.map(\.status) == [.messageWaiting, .rejected, .messageWaiting])
        let reason = try #require(r.responses[1].reason)
        #expect(reason.contains("clientData[1] (RECEIVER_NAME)"), "\(reason)")
        #expect(reason.contains("control characters"), "\(reason)")
        #expect(r.responses[1].price == 0)
        // Only the accepted two reach the delivery infos (and so the carrier).
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: r.bulkId))
        #expect(infos.deliveryInfoList.deliveryInfo.map(\.address) == [Numbers.croatianMobile, Numbers.croatianMobile2])
    }

    @Test func anAddressWithControlCharactersIsRejectedAloneAndAnsweredWithoutThem() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let r = try await h.invite([.init(address: "38598\u{1B}]0;x\u{7}1234567", messageId: "a"),
                                    .init(address: Numbers.croatianMobile2, messageId: "b")])
        #expect(r.responses.map(\.status) == [.rejected, .messageWaiting])
        #expect(r.responses[0].reason?.hasPrefix("address:") == true, "\(r.responses[0].reason ?? "")")
        #expect(r.responses[0].address.map { TerminalSafeText.isAlreadySafe($0) } == true)
    }

    @Test func aRequestLevelFieldStillFailsTheWholeRequest() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        do {
            _ = try await h.invite([.init(address: Numbers.croatianMobile, messageId: "a\u{1B}")])
            Issue.record("expected a bad request")
        } catch {
            guard case .badRequest(_, let errors) = error else { Issue.record("got \(error)"); return }
            #expect(errors["recipients.destinations[0].messageId"] != nil, "\(errors)")
        }
        #expect(try await h.engine.messagesCount() == 0)
    }
}
