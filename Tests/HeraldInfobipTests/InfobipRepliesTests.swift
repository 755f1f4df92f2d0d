import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Replies on Infobip: the messages people send back are pulled from `GET /sms/1/inbox/reports` (each given once), and
/// one that says stop opts its sender out, so the next send refuses the number.
@Suite struct InfobipRepliesTests {
    @Test func aStopReplyPulledFromInfobipOptsTheNumberOutAndOtherRepliesDoNot() async throws {
        let h = try await InfobipHarness()
        await h.state.receiveInbound(from: "385911234567", text: "STOP")
        await h.state.receiveInbound(from: "385911234568", text: "Hello, who is this?")
        // A read of the platform collects them (the terminal's own engine catches up on reads).
        let sent = try await h.workspace.invites.invite(numbers: [InfobipHarness.mobile(9)])
        _ = try await h.workspace.platform.deliveryInfos(bulkId: try #require(sent.bulkId))
        let pulls = await h.state.requests(to: "/sms/1/inbox/reports")
        #expect(pulls.count == 1 && pulls.first?.values("limit") == ["1000"])
        #expect(await h.state.inboundWaiting == 0)
        let out = try await h.workspace.invites.optOuts()
        #expect(out.map(\.number) == ["+385911234567"] && out.first?.source == "reply: STOP", "\(out)")
        // Within the interval a second read asks Infobip nothing more.
        _ = try await h.workspace.platform.deliveryInfos(bulkId: try #require(sent.bulkId))
        #expect(await h.state.requests(to: "/sms/1/inbox/reports").count == 1)
        let refused = try await h.workspace.invites.invite(numbers: ["+385911234567"])
        #expect(refused.recipients.first?.status == .rejected && refused.recipients.first?.reason?.hasPrefix("opted out on") == true)
    }
}
