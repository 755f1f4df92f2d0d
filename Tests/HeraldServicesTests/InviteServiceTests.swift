import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

@Suite struct InviteServiceTests {
    @Test func invitesEveryInvitableNumberOfAPersonOnceAndWritesTheLedger() async throws {
        let h = try await WorkspaceHarness()
        let marko = try h.person("Marko", "Horvat", numbers: ["091 234 5678", "+385 91 234 5678", "01 4567 890", "12"])
        let result = try await h.workspace.invites.invite(person: marko)

        #expect(result.recipients.map(\.address) == ["+385912345678"])
        #expect(result.recipients.first?.status == .messageWaiting)
        #expect(result.recipients.first?.personId == marko.id)
        // The fixed-line and the invalid number are reported, not sent; the duplicate is sent once.
        #expect(Set(result.skipped.map(\.address)) == ["+38514567890", "12"])
        let bulkId = try #require(result.bulkId)
        let rows = try h.workspace.ledger.recipients(ofBulk: bulkId)
        #expect(rows.count == 1)
        #expect(rows.first?.messageId == result.recipients.first?.messageId)
        #expect(rows.first?.correlator == result.recipients.first?.correlator)
        // The client fields reached the message text.
        let sent = try await h.engineMessages(bulkId: bulkId)
        #expect(sent.first?.text?.hasPrefix("Hi Marko Horvat, Ana invites you to Herald: https://herald.invalid/r/") == true)
    }

    @Test func aSelectionIsOneBulkAndFieldsAreFilledPerRecipient() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(5)
        let result = try await h.workspace.invites.invite(people: people, options: InviteOptions(fields: ["SENDER_NAME": "Iva"]))
        #expect(result.bulkIds.count == 1)
        #expect(result.recipients.count == 5)
        let texts = try await h.engineMessages(bulkId: try #require(result.bulkId)).compactMap(\.text)
        #expect(texts.count == 5)
        #expect(texts[2].hasPrefix("Hi P2 Test, Iva invites you"))
    }

    @Test func rawNumbersAreParsedAndMatchedToPeople() async throws {
        let h = try await WorkspaceHarness()
        let ana = try h.person("Ana", numbers: ["+385 98 765 4321"])
        let result = try await h.workspace.invites.invite(numbers: ["098 765 4321", "+385 91 111 2222", "not a number", "01 4567 890"])
        #expect(result.recipients.map(\.address) == ["+385987654321", "+385911112222"])
        #expect(result.recipients.map(\.personId) == [ana.id, nil])
        #expect(result.skipped.map(\.address) == ["not a number", "+38514567890"])
        #expect(result.skipped[1].reason.contains("cannot receive SMS"))
    }

    @Test func resendPolicySkipsPendingAndInvitedButRetriesFailed() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(2)
        _ = try await h.workspace.invites.invite(people: people)
        let again = try await h.workspace.invites.invite(people: people)
        #expect(again.recipients.isEmpty)
        #expect(again.bulkId == nil)
        #expect(again.skipped.count == 2)
        #expect(again.skipped.allSatisfy { $0.reason.contains("already on its way") })

        // A number the platform rejected may be retried.
        let rejected = try h.workspace.ledger.claim([QueuedRecipient(msisdn: WorkspaceHarness.mobile(50), personId: nil, correlator: "hc-old")],
                                                    policy: .default, owner: "gone", chunkSize: 10) { _ in ("old", "{}") }
        #expect(rejected.sends.count == 1)
        try h.workspace.ledger.markFailed(correlators: ["hc-old"], reason: "rejected", status: .rejected, completing: "old")
        let other = try h.person("Zoe", numbers: [WorkspaceHarness.mobile(50)])
        let retry = try await h.workspace.invites.invite(person: other)
        #expect(retry.recipients.count == 1)
        #expect(retry.recipients.first?.status == .messageWaiting)
    }

    @Test func wholeRequestRulesThrowBeforeAnythingIsWritten() async throws {
        let h = try await WorkspaceHarness()
        let p = try h.person("Ana", numbers: [WorkspaceHarness.mobile(1)])
        do {
            _ = try await h.workspace.invites.invite(person: p, options: InviteOptions(sender: "ThisIsTooLongForASender"))
            Issue.record("a long sender must be refused")
        } catch let error as InviteError {
            #expect(error.userMessage.contains("alphanumeric sender IDs are at most 11 characters"))
        }
        do {
            _ = try await h.workspace.invites.invite(person: p, options: InviteOptions(fields: ["NICKNAME": "x"]))
            Issue.record("an unknown field must be refused")
        } catch let error as InviteError {
            #expect(error.userMessage.contains("unknown field NICKNAME"))
        }
        // An empty message cannot be created, and the engine's message cannot be emptied either.
        await #expect(throws: TemplateError.emptyText) { try await h.workspace.templates.create(text: "   ") }
        #expect(try h.workspace.ledger.queuedInvitations().isEmpty)
        #expect(try h.workspace.ledger.bulks().isEmpty)
    }

    @Test func moreThanAThousandDestinationsAreSplitIntoSeveralRequests() async throws {
        let h = try await WorkspaceHarness()
        let counting = CountingPlatform(h.workspace.platform)
        let service = InviteService(platform: counting, ledger: h.workspace.ledger, contacts: h.workspace.contacts,
                                    templates: h.workspace.templates, lease: try SendLease.take(for: h.workspace.database), bus: h.workspace.bus,
                                    parser: WorkspaceHarness.hr, settings: InviteSettings(sender: "Herald"), clock: h.clock)
        let numbers = (0..<1500).map(WorkspaceHarness.mobile)
        let result = try await service.invite(numbers: numbers)
        #expect(counting.count("send") == 2)
        #expect(result.bulkIds.count == 2)
        #expect(result.recipients.count == 1500)
        let first = try h.workspace.ledger.recipients(ofBulk: result.bulkIds[0]).count
        let second = try h.workspace.ledger.recipients(ofBulk: result.bulkIds[1]).count
        #expect(first == 1000)
        #expect(second == 500)
    }

    @Test func aServerErrorIsRetriedAndOneThatOutlastsTheRetriesLeavesRowsQueuedNotFailed() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(3)
        // Two 500s, then the platform answers: the send goes through on its third attempt.
        await h.workspace.engine.injectFaults(.serverError(status: 500), count: 2, pathPrefix: "/1/social-invite/invitation")
        let sent = try await h.workspace.invites.invite(people: Array(people.prefix(1)))
        #expect(sent.recipients.map(\.status) == [.messageWaiting])

        // More 500s than attempts: nothing is marked failed (a 5xx does not say nothing was sent).
        await h.workspace.engine.injectFaults(.serverError(status: 500), count: 4, pathPrefix: "/1/social-invite/invitation")
        do {
            _ = try await h.workspace.invites.invite(people: Array(people.dropFirst()))
            Issue.record("the send must fail")
        } catch let error as InviteError {
            #expect(error.userMessage.contains("platform error 500"))
            #expect(error.userMessage.contains("stay queued"))
        }
        let rows = try people.dropFirst().flatMap { try h.workspace.ledger.invitations(for: $0) }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.status == .queued })
        #expect(await h.workspace.invites.reconcileQueued().reconciled == 2)
    }

    @Test func aPlatformThatAcceptsAndThenAnswers503IsNotSentTwice() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(5)
        await h.workspace.engine.injectFaults(.serverErrorAfterProcessing(status: 503), count: 2,
                                              pathPrefix: "/1/social-invite/invitation")
        let result = try await h.workspace.invites.invite(people: people)
        #expect(result.recipients.count == 5)
        #expect(result.bulkIds.count == 1)
        let messages = try await h.engineMessages(bulkId: try #require(result.bulkId))
        #expect(messages.count == 5)
        #expect(Set(messages.map(\.address)).count == 5)
    }

    @Test func a400RefusalMarksRowsFailedWithTheReasonAndKeepsThem() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(2)
        let refusing = CountingPlatform(h.workspace.platform)
        refusing.refuseSends = .badRequest("sender not registered", validationErrors: ["sender": ["not registered"]])
        let service = InviteService(platform: refusing, ledger: h.workspace.ledger, contacts: h.workspace.contacts,
                                    templates: h.workspace.templates, lease: try SendLease.take(for: h.workspace.database),
                                    bus: h.workspace.bus, parser: WorkspaceHarness.hr,
                                    settings: InviteSettings(sender: "Herald", retry: SendRetry(baseDelay: 0)), clock: h.clock)
        await #expect(throws: InviteError.self) { try await service.invite(people: people) }
        #expect(refusing.count("send") == 1)  // a refusal is final: no retry
        let rows = try people.flatMap { try h.workspace.ledger.invitations(for: $0) }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.status == .sendFailed && $0.error?.contains("sender not registered") == true })
        #expect(try h.workspace.ledger.queuedSnapshot().sends.isEmpty)
    }

    @Test func aSendInterruptedAfterThePlatformProcessedItIsReconciledWithoutSendingTwice() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(4)
        // The platform sends, but the answer is lost: to the client it is a timeout.
        await h.workspace.engine.injectFaults(.timeoutAfterProcessing, count: 4, pathPrefix: "/1/social-invite/invitation")
        do {
            _ = try await h.workspace.invites.invite(people: people)
            Issue.record("the lost answer must be reported")
        } catch let error as InviteError {
            #expect(error.userMessage.contains("stay queued"))
        }
        #expect(try h.workspace.ledger.queuedInvitations().count == 4)

        // The process ends; the next start (a new workspace on the same folder) reconciles before anything else.
        h.workspace.close()
        let reopened = try await h.reopen()
        #expect(try reopened.ledger.queuedInvitations().isEmpty)
        let rows = try people.flatMap { try reopened.ledger.invitations(for: $0) }
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { $0.status == .messageWaiting && $0.bulkId != nil && $0.messageId != nil })
        let bulkIds = Set(rows.compactMap(\.bulkId))
        #expect(bulkIds.count == 1)
        let engineMessages = try await h.engineMessages(bulkId: try #require(bulkIds.first))
        #expect(engineMessages.count == 4)
        #expect(Set(engineMessages.map(\.address)).count == 4)
    }

    @Test func aCrashBeforeThePlatformWasCalledIsSentOnceOnRestart() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(2)
        // The platform cannot be reached at all: nothing was sent, rows stay queued.
        await h.workspace.engine.injectFaults(.timeout, count: 4, pathPrefix: "/1/social-invite/invitation")
        await #expect(throws: InviteError.self) { try await h.workspace.invites.invite(people: people) }
        let queued = try h.workspace.ledger.queuedInvitations()
        #expect(queued.count == 2)

        // The next send reconciles first: the two queued ones go out once, then the new one.
        let third = try h.person("Late", numbers: [WorkspaceHarness.mobile(99)])
        let result = try await h.workspace.invites.invite(person: third)
        #expect(result.recipients.count == 1)
        #expect(try h.workspace.ledger.queuedInvitations().isEmpty)
        let reconciled = try queued.compactMap { try h.workspace.ledger.invitation(correlator: $0.correlator) }
        #expect(reconciled.allSatisfy { $0.status == .messageWaiting })
        let bulk = try #require(reconciled.first?.bulkId)
        #expect(try await h.engineMessages(bulkId: bulk).count == 2)
        // Replaying again changes nothing on the platform.
        #expect(await h.workspace.invites.reconcileQueued() == ReconcileReport())
        #expect(try await h.engineMessages(bulkId: bulk).count == 2)
    }
}
