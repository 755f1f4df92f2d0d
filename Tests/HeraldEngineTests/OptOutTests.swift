import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The platform's opt-out list: a number on it is refused by every send ("opted out on DATE") in the unit that would
/// have accepted it; a reply that says stop puts its sender on it; taken off, the number may be invited again.
@Suite struct OptOutTests {
    @Test func anOptedOutNumberIsRefusedWithTheDayAndTheOthersLeave() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let added = try await h.call(AddOptOut(secret: h.creds.secret, number: "+385981200001"))
        #expect(added.number == "+385981200001" && added.source == "herald")
        let day = added.reason
        #expect(day.hasPrefix("opted out on 20"))
        let sent = try await h.invite(CarrierWorkTests.destinations(3))
        let refused = sent.responses.filter { $0.status == .rejected }
        #expect(refused.count == 1 && refused.first?.reason == day, "\(sent.responses)")
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: sent.bulkId)).deliveryInfoList.deliveryInfo
        #expect(infos.count == 2, "the two others were accepted and left")
        // Opting out again keeps the first day; the list has it once.
        h.clock.advance(by: 86_400 * 3)
        #expect(try await h.call(AddOptOut(secret: h.creds.secret, number: "385981200001")).since == added.since)
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts == [added])
        // Off the list, it may be invited again.
        _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981200001"))
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts.isEmpty)
        let again = try await h.invite([SendInvitationBody.Destination(address: "385981200001", messageId: "again")])
        #expect(again.responses.first?.status != .rejected)
        await #expect(throws: APIError.self) { try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+385981200001")) }
    }

    @Test func aReplyThatSaysStopOptsItsSenderOutAndOtherRepliesDoNot() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        for (text, stops) in [("Thanks!", false), ("stop", true), ("  Unsubscribe please", true), ("STOPALL", true), ("stopping by later", false)] {
            let number = "+38598130000\(text.count % 10)"
            _ = try? await h.call(RemoveOptOut(secret: h.creds.secret, number: number))
            let entry = try await h.engine.receiveReply(applicationKey: h.creds.applicationKey, from: number, text: text)
            #expect((entry != nil) == stops, "\"\(text)\"")
            if let entry { #expect(entry.source.hasPrefix("reply: ")) }
        }
        // A bad number is refused, naming it.
        await #expect(throws: APIError.self) { try await h.engine.receiveReply(applicationKey: h.creds.applicationKey, from: "12", text: "STOP") }
        await #expect(throws: APIError.self) { try await h.call(AddOptOut(secret: h.creds.secret, number: "not-a-number")) }
        // A body that is there must be an opt-out: a malformed one is refused, and nothing is kept.
        let malformed = await h.raw(.put, "/1/social-invite/optouts/385981300009", json: "{\"source\": 7", auth: "App \(h.creds.secret)")
        #expect(malformed.status == 400)
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts.allSatisfy { $0.number != "+385981300009" })
    }
}
