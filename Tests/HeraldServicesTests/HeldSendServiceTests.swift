import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// The invitation service's careful sending on the embedded platform: the undo window holds a send in the ledger and
/// the engine, a take-back ends its rows `cancelled` (and the person not invited, free to be invited again), and
/// quiet hours hold each recipient until the end of the night in their own time zone.
@Suite struct HeldSendServiceTests {
    @Test func theUndoWindowHoldsTheSendAndATakeBackLeavesThePersonNotInvited() async throws {
        var config = WorkspaceHarness.config()
        config.holdSeconds = 10
        let h = try await WorkspaceHarness(config: config)
        let ana = try h.person("Ana", numbers: [WorkspaceHarness.mobile(1)])
        let result = try await h.workspace.invites.invite(person: ana)
        #expect(result.sendAt == h.clock.now().addingTimeInterval(10))
        let bulkId = try #require(result.bulkId)
        #expect(result.recipients.map(\.status) == [.scheduled])
        #expect(try h.workspace.ledger.bulk(id: bulkId)?.sendAt == result.sendAt)
        #expect(try h.workspace.ledger.bulk(id: bulkId)?.nextPollAt == result.sendAt?.addingTimeInterval(1), "first read just after it leaves")

        let answer = try await h.workspace.invites.cancel(bulkId: bulkId)
        #expect(answer.cancelled == 1 && answer.left == 0)
        #expect(try h.workspace.ledger.recipients(ofBulk: bulkId).map(\.status) == [.cancelled])
        let summary = PersonInvitationSummary(person: ana, invitations: try h.workspace.ledger.invitations(for: ana))
        #expect(summary.state == .notInvited, "a take-back leaves the person not invited")
        // Invited again (at once), it goes.
        let again = try await h.workspace.invites.invite(person: ana, options: InviteOptions(now: true))
        #expect(again.recipients.map(\.status) != [.scheduled] && again.skipped.isEmpty)
    }

    @Test func quietHoursHoldEachRecipientUntilMorningInTheirOwnZone() async throws {
        var config = WorkspaceHarness.config()
        config.quietHours = try QuietHours(parsing: "21:00-08:00")
        // 2026-01-15 07:00 UTC: 08:00 in Zagreb (open), 02:00 in New York (quiet until 08:00 there = 13:00 UTC).
        let clock = ManualClock(Date(timeIntervalSince1970: 1_768_460_400))
        let h = try await WorkspaceHarness(config: config, clock: clock)
        let result = try await h.workspace.invites.invite(numbers: ["+385911234567", "+12125550143"])
        #expect(result.bulkIds.count == 2, "one bulk leaves now, one waits for New York's morning")
        let zagreb = try #require(result.recipients.first { $0.address == "+385911234567" })
        let newYork = try #require(result.recipients.first { $0.address == "+12125550143" })
        #expect(zagreb.status != .scheduled)
        #expect(newYork.status == .scheduled)
        #expect(newYork.reason == "quiet hours 21:00-08:00: leaves at 08:00 local time (America/New_York)", "\(newYork.reason ?? "none")")
        let heldId = try #require(newYork.bulkId)
        let held = try #require(try h.workspace.ledger.bulk(id: heldId))
        #expect(held.sendAt == Date(timeIntervalSince1970: 1_768_460_400 + 6 * 3600))
        // A send with quiet hours off goes to everyone at once.
        let loud = try await h.workspace.invites.invite(numbers: ["+12125550144"], options: InviteOptions(ignoreQuietHours: true))
        #expect(loud.recipients.map(\.status) != [.scheduled])
    }

    @Test func aDailyCapLeavesOutWhatIsOverItAndSaysWhatRemains() async throws {
        var config = WorkspaceHarness.config()
        config.maxPerDay = 3
        let h = try await WorkspaceHarness(config: config)
        let first = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(1), WorkspaceHarness.mobile(2)])
        #expect(first.recipients.count == 2 && first.leftToday == 1)
        let second = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(3), WorkspaceHarness.mobile(4)])
        #expect(second.recipients.map(\.address) == [WorkspaceHarness.mobile(3)] && second.leftToday == 0)
        #expect(second.skipped.map(\.address) == [WorkspaceHarness.mobile(4)])
        #expect(second.skipped.first?.reason.contains("over today's cap of 3 invitations from Herald") == true)
        // A new day starts the count again.
        h.clock.advance(by: 86_400)
        let tomorrow = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(4)])
        #expect(tomorrow.recipients.count == 1 && tomorrow.leftToday == 2)
    }
}
