import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// `InviteService.answer`: one SMS to one number exactly as written (an answer to a reply), through the ledger as an
/// invitation goes — journaled first, replayed once after a lost answer, held by the undo window and quiet hours,
/// refused for an opted-out number — with the text as sent in the ledger and in the engine.
@Suite struct InviteAnswerTests {
    static let text = "Yes {RECEIVER_NAME}, see you at 8 <> and bring a friend"

    @Test func anAnswerLeavesExactlyAsWrittenAndTheLedgerKeepsItsText() async throws {
        let h = try await WorkspaceHarness()
        let marko = try h.person("Marko", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        let result = try await h.workspace.invites.answer(number: "091 100 0001", text: Self.text)
        let sent = try #require(result.recipients.first)
        #expect(result.recipients.count == 1 && result.skipped.isEmpty)
        #expect(sent.personId == marko.id)
        #expect(sent.status == .messageWaiting)
        let bulkId = try #require(result.bulkId)
        let rows = try h.workspace.ledger.recipients(ofBulk: bulkId)
        #expect(rows.map(\.text) == [Self.text])
        #expect(try h.workspace.ledger.bulk(id: bulkId)?.messageText == Self.text)
        let stored = try await h.engineMessages(bulkId: bulkId)
        #expect(stored.map(\.text) == [Self.text])
        #expect(stored.first?.linkCode == nil, "no link is made for an answer")
    }

    /// The resend policy never holds an answer back: one right after an invitation, or after another answer still
    /// in its undo window, goes too.
    @Test func anAnswerRightAfterAnotherMessageGoesToo() async throws {
        let h = try await WorkspaceHarness()
        let marko = try h.person("Marko", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        _ = try await h.workspace.invites.invite(person: marko)
        let second = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(1), text: "One more thing")
        #expect(second.recipients.map(\.status) == [.messageWaiting], "\(second.skipped)")
        let third = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(1), text: "And one more")
        #expect(third.recipients.map(\.status) == [.messageWaiting], "\(third.skipped)")
    }

    @Test func aLostAnswerStaysQueuedAndIsReplayedOnceWithItsText() async throws {
        let h = try await WorkspaceHarness()
        await h.workspace.engine.injectFaults(.serverErrorAfterProcessing(status: 503), count: 4,
                                              pathPrefix: "/1/social-invite/invitation")
        do {
            _ = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(2), text: Self.text)
            Issue.record("the answer must wait queued")
        } catch InviteError.platformUncertain(_, let queued) {
            #expect(queued == 1)
        }
        let waiting = try h.workspace.ledger.queuedInvitations()
        #expect(waiting.map(\.msisdn) == [WorkspaceHarness.mobile(2)])
        #expect(await h.workspace.invites.reconcileQueued().reconciled == 1)
        let row = try #require(try h.workspace.ledger.latestInvitation(msisdn: WorkspaceHarness.mobile(2)))
        #expect(row.text == Self.text)
        let bulkId = try #require(row.bulkId)
        let stored = try await h.engineMessages(bulkId: bulkId)
        #expect(stored.map(\.text) == [Self.text], "accepted once, not sent twice")
    }

    @Test func theUndoWindowQuietHoursAndOptOutsHoldForAnAnswer() async throws {
        var config = WorkspaceHarness.config()
        config.holdSeconds = 10
        config.quietHours = try QuietHours(parsing: "21:00-08:00")
        // 2026-01-15 07:00 UTC: 08:00 in Zagreb (open), 02:00 in New York (quiet until 08:00 there).
        let h = try await WorkspaceHarness(config: config, clock: ManualClock(Date(timeIntervalSince1970: 1_768_460_400)))
        let zagreb = try await h.workspace.invites.answer(number: "+385911234567", text: "Thanks!")
        #expect(zagreb.sendAt == h.clock.now().addingTimeInterval(10))
        #expect(zagreb.recipients.map(\.status) == [.scheduled])
        // Taken back in the undo window.
        let bulkId = try #require(zagreb.bulkId)
        #expect(try await h.workspace.invites.cancel(bulkId: bulkId).cancelled == 1)

        let newYork = try await h.workspace.invites.answer(number: "+12125550143", text: "Thanks!")
        #expect(newYork.recipients.first?.reason == "quiet hours 21:00-08:00: leaves at 08:00 local time (America/New_York)")

        _ = try await h.workspace.invites.optOut(numbers: ["+385911234568"])
        let stopped = try await h.workspace.invites.answer(number: "+385911234568", text: "Thanks!")
        #expect(stopped.recipients.map(\.status) == [.rejected])
        #expect(stopped.recipients.first?.reason?.contains("opted out") == true, "\(stopped.recipients.first?.reason ?? "")")
    }

    @Test func anEmptyTooLongOrNumberlessAnswerIsRefusedBeforeAnythingIsWritten() async throws {
        let h = try await WorkspaceHarness()
        await #expect(throws: InviteError.emptyAnswer) {
            _ = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(3), text: " \n ")
        }
        await #expect(throws: InviteError.answerTooLong(1601, limit: 1600)) {
            _ = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(3), text: String(repeating: "x", count: 1601))
        }
        do {
            _ = try await h.workspace.invites.answer(number: "not a number", text: "Hi")
            Issue.record("a bad number must be refused")
        } catch let error as InviteError {
            #expect(error.userMessage.hasPrefix("not a number is not a number to answer"))
        }
        #expect(try h.workspace.ledger.latestInvitation(msisdn: WorkspaceHarness.mobile(3)) == nil)
        // Control characters are cleaned; the text as sent says what the ledger keeps.
        let cleaned = try await h.workspace.invites.answer(number: WorkspaceHarness.mobile(3), text: "Hi\u{1B}[31m there")
        let row = try #require(try h.workspace.ledger.latestInvitation(msisdn: WorkspaceHarness.mobile(3)))
        #expect(row.bulkId == cleaned.bulkId)
        #expect(row.text == "Hi there" || row.text.map { TerminalSafeText.isAlreadySafe($0) } == true, "\(row.text ?? "")")
    }
}
