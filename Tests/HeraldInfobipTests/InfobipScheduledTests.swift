import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Held sends on Infobip: the messages go to Infobip at once with `options.schedule.sendAt`, so Infobip holds them and
/// they leave at their time even when no Herald runs; taking back is `PUT /sms/1/bulks/status` CANCELED (all of the bulk
/// or, once it left, nothing), moving is `PUT /sms/1/bulks`. Checked against the stand-in, which holds to the spec.
@Suite struct InfobipScheduledTests {
    static func body(_ request: StandInState.Recorded) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
    }

    static func statuses(_ h: InfobipHarness, _ bulkId: String) async throws -> [DeliveryStatus] {
        try await h.workspace.platform.deliveryInfos(bulkId: bulkId).map(\.deliveryStatus)
    }

    @Test func aScheduledSendIsHeldByInfobipMovedAndTakenBackWhole() async throws {
        let h = try await InfobipHarness()
        let at = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded())   // whole seconds, as kept
        let result = try await h.workspace.invites.invite(numbers: [InfobipHarness.mobile(1), InfobipHarness.mobile(2)],
                                                          options: InviteOptions(sendAt: at))
        let bulkId = try #require(result.bulkId)
        let sends = await h.state.requests(to: "/sms/3/messages")
        #expect(sends.count == 1)
        let schedule = try #require((try Self.body(sends[0])["options"] as? [String: Any])?["schedule"] as? [String: Any])
        #expect(schedule["bulkId"] as? String == bulkId)
        let sendAt = try #require(schedule["sendAt"] as? String)
        #expect(sendAt == InfobipBulkSchedule.sendAtText(at) && sendAt.hasSuffix("+0000") && sendAt.count == 28, "\(sendAt)")
        #expect(try await Self.statuses(h, bulkId) == [.scheduled, .scheduled])
        #expect(await h.state.handedOver.isEmpty, "Infobip holds it")

        let later = at.addingTimeInterval(3600)
        let moved = try await h.workspace.invites.reschedule(bulkId: bulkId, to: later)
        #expect(moved.held == 2)
        let move = try #require(await h.state.requests(to: "/sms/1/bulks").first { $0.method == "PUT" && $0.path == "/sms/1/bulks" })
        #expect(move.values("bulkId") == [bulkId])
        #expect(try Self.body(move)["sendAt"] as? String == InfobipBulkSchedule.sendAtText(later))
        #expect(await h.state.scheduledBulk(bulkId)?.sendAt.timeIntervalSince(later).magnitude ?? 99 < 0.01)

        let taken = try await h.workspace.invites.cancel(bulkId: bulkId)
        #expect(taken.cancelled == 2 && taken.left == 0, "\(taken)")
        let cancel = try #require(await h.state.requests(to: "/sms/1/bulks/status").first { $0.method == "PUT" })
        #expect(try Self.body(cancel)["status"] as? String == "CANCELED")
        #expect(try await Self.statuses(h, bulkId) == [.cancelled, .cancelled])
        await h.state.advanceClock(by: 3 * 3600)
        _ = try await Self.statuses(h, bulkId)
        #expect(await h.state.handedOver.isEmpty, "nothing left after the take-back, even past its time")
        #expect(await h.state.requests(to: "/sms/3/messages").count == 1, "never posted again")
    }

    @Test func aTakeBackAfterInfobipLetItGoSaysItLeftWhole() async throws {
        let h = try await InfobipHarness()
        let result = try await h.workspace.invites.invite(numbers: [InfobipHarness.mobile(3), InfobipHarness.mobile(4)],
                                                          options: InviteOptions(sendAt: Date().addingTimeInterval(60)))
        let bulkId = try #require(result.bulkId)
        await h.state.advanceClock(by: 120)       // at Infobip, its time has come and it left
        let late = try await h.workspace.invites.cancel(bulkId: bulkId)
        #expect(late.cancelled == 0 && late.left == 2, "\(late)")
        #expect(late.summary.hasPrefix("too late"))
        #expect(await h.state.handedOver.count == 2)
    }

    @Test func theUndoWindowOnInfobipIsASendAtThatInfobipHolds() async throws {
        let h = try await InfobipHarness()
        var config = InfobipHarness.config
        config.holdSeconds = 30
        let ws = try await Workspace.open(dataDirectory: h.folder.appendingPathComponent("held"),
                                          platform: InfobipPlatform(settings: h.settings), config: config)
        defer { ws.close() }
        let result = try await ws.invites.invite(numbers: [InfobipHarness.mobile(5)])
        let sendAt = try #require(result.sendAt)
        #expect(sendAt.timeIntervalSinceNow > 25)
        let last = try #require(await h.state.requests(to: "/sms/3/messages").last)
        let schedule = try #require((try Self.body(last)["options"] as? [String: Any])?["schedule"] as? [String: Any])
        #expect(schedule["sendAt"] as? String == InfobipBulkSchedule.sendAtText(sendAt))
        #expect(result.recipients.map(\.status) == [.scheduled])
    }
}
