import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// Sends the engine holds until their time (the undo window, a scheduled send): nothing reaches the carrier before
/// it, a cancel takes back the whole bulk or nothing, and a move changes when it leaves.
@Suite struct HeldSendsTests {
    func send(_ h: EngineHarness, _ n: Int, sendAt: Date?) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald",
                                      destinations: CarrierWorkTests.destinations(n), sendAt: sendAt.map(WireTime.text))
        return try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
    }

    func statuses(_ h: EngineHarness, _ bulkId: String) async throws -> [DeliveryStatus] {
        try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulkId)).deliveryInfoList.deliveryInfo.map(\.deliveryStatus)
    }

    @Test func aHeldSendReachesTheCarrierOnlyAtItsTimeAndWhole() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let at = h.clock.now().addingTimeInterval(10)
        let bulk = try await send(h, 30, sendAt: at)
        #expect(bulk.responses.allSatisfy { $0.status == .scheduled })
        // Reads during the hold hand nothing over; the infos say when it leaves.
        h.clock.advance(by: 9)
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId)).deliveryInfoList.deliveryInfo
        #expect(infos.allSatisfy { $0.deliveryStatus == .scheduled && $0.sendAt == WireTime.text(at) })
        #expect(try await h.engine.runCarrierPass().handed == 0)
        #expect(try await h.engine.runCarrierPass().nextDueAt == at, "a server's carrier worker wakes for the release")
        h.clock.advance(by: 1)
        #expect(try await h.engine.runCarrierPass().handed == 30)
        #expect(try await statuses(h, bulk.bulkId).allSatisfy { $0 != .scheduled })
        // Taking it back now is too late, and says so.
        let late = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(late.cancelled == 0 && late.left == 30 && late.held == 0)
    }

    @Test func aCancelDuringTheHoldTakesBackEveryMessageAndTheyNeverLeave() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bulk = try await send(h, 12, sendAt: h.clock.now().addingTimeInterval(10))
        let answer = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(answer.cancelled == 12 && answer.left == 0 && answer.held == 0 && answer.sendAt == nil)
        h.clock.advance(by: 60)
        #expect(try await h.engine.runCarrierPass().handed == 0)
        #expect(try await statuses(h, bulk.bulkId) == Array(repeating: .cancelled, count: 12))
        // A second cancel changes nothing and says the same.
        let again = try await h.call(CancelBulk(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(again.cancelled == 12 && again.left == 0)
        // The numbers may be invited again: a new bulk with new messageIds leaves.
        let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: CarrierWorkTests.destinations(12)
            .map { SendInvitationBody.Destination(address: $0.address, messageId: "again-" + ($0.messageId ?? "")) })
        let resent = try await h.call(SendInvitation(secret: h.creds.secret, body: body)).sendSmsResponse
        #expect(resent.responses.allSatisfy { $0.status != .rejected && $0.status != .scheduled })
    }

    @Test func aMoveChangesWhenTheHeldMessagesLeave() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bulk = try await send(h, 4, sendAt: h.clock.now().addingTimeInterval(10))
        let later = h.clock.now().addingTimeInterval(3600)
        let moved = try await h.call(RescheduleBulk(secret: h.creds.secret, bulkId: bulk.bulkId, sendAt: later))
        #expect(moved.held == 4 && moved.sendAt == WireTime.text(later))
        h.clock.advance(by: 60)
        #expect(try await h.engine.runCarrierPass().handed == 0, "moved an hour on, it no longer leaves at the first time")
        h.clock.set(later)
        #expect(try await h.engine.runCarrierPass().handed == 4)
        let schedule = try await h.call(GetBulkSchedule(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(schedule.held == 0 && schedule.left == 4)
    }

    @Test func badTimesAreRefusedNamingTheFieldAndNothingIsStored() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        for (text, why) in [("yesterday", "not a time"), (WireTime.text(h.clock.now().addingTimeInterval(-3600)), "in the past"),
                            (WireTime.text(h.clock.now().addingTimeInterval(181 * 86_400)), "180 days")] {
            let body = SendInvitationBody(messageKey: h.creds.messageKey, sender: "Herald", destinations: CarrierWorkTests.destinations(1),
                                          sendAt: text)
            do {
                _ = try await h.call(SendInvitation(secret: h.creds.secret, body: body))
                Issue.record("\(text) was accepted")
            } catch {
                guard case .badRequest(_, let errors) = error else { Issue.record("\(error)"); continue }
                #expect(errors["sendAt"]?.first?.contains(why) == true, "\(errors)")
            }
        }
        #expect(try await h.engine.runCarrierPass().handed == 0)
        // Unknown bulks are 404 for every held-bulk call; another status than CANCELED is refused.
        await #expect(throws: APIError.self) { try await h.call(CancelBulk(secret: h.creds.secret, bulkId: "nope")) }
        let bulk = try await send(h, 1, sendAt: h.clock.now().addingTimeInterval(10))
        let paused = await h.raw(.put, "/1/social-invite/bulks/\(bulk.bulkId)/status", json: #"{"status":"PAUSED"}"#,
                                 auth: "App \(h.creds.secret)")
        #expect(paused.status == 400)
    }
}
