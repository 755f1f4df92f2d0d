import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// A local read that fails is reported as such, never passed off as an empty or shorter answer.
@Suite struct ReadFailureTests {
    @Test func anUnreadableInboxCopyIsNotAnEmptyInboxWhenThePlatformIsDown() async throws {
        let h = try await WorkspaceHarness()
        let pushed = try await h.workspace.engine.pushInbox(user: "ana", topic: nil, title: "T", body: "B")
        _ = try await h.workspace.inbox.fetch(user: "ana")
        try h.workspace.database.write { try $0.execute(sql: "DROP TABLE inbox_message") }
        await h.workspace.engine.injectFaults(.serverError(status: 503), pathPrefix: "/mobile/1/user")
        do {
            let page = try await h.workspace.inbox.fetch(user: "ana")
            Issue.record("an unreadable local copy answered \(page.messages.count) message(s), fromCache=\(page.fromCache)")
        } catch {
            guard case .platform(let api) = error else { Issue.record("expected the platform's failure, got \(error)"); return }
            #expect(api.isRetryable)
        }
        // Marking seen needs the local copy: it says it could not, and queues nothing.
        do {
            try await h.workspace.inbox.markSeen(user: "ana", messageIds: [pushed.messageId])
            Issue.record("a mark was made without reading the local copy")
        } catch {
            guard case .seenNotSaved(_, let pending) = error else { Issue.record("expected seenNotSaved, got \(error)"); return }
            #expect(pending == 0)
            #expect(error.userMessage.hasPrefix("could not mark the message(s) seen: "))
        }
        #expect(await h.workspace.inbox.pendingSeenCount(user: "ana") == 0)
    }

    @Test func anUnreadableLocalCopyOfTheMessagesIsSaidNotListedAsFewerMessages() async throws {
        let h = try await WorkspaceHarness()
        let templates = h.workspace.templates
        let d = try await templates.defaultMessageKey()
        try h.workspace.database.write { try $0.execute(sql: "DROP TABLE template_cache") }
        var listing = await templates.listing()
        #expect(listing.messages.map(\.key) == [d])
        #expect(listing.defaultKey == d)
        #expect(listing.unreadable.count == 1)
        #expect(listing.unreadable.first?.hasPrefix("could not read the local copy of the messages: ") == true)
        // With the platform down as well, the default message is said unreadable, not quietly left out.
        await h.workspace.engine.injectFaults(.serverError(status: 503), count: 10, pathPrefix: "/1/social-invite/application")
        listing = await templates.listing()
        #expect(listing.messages.isEmpty)
        #expect(listing.unreadable.contains { $0.hasPrefix("could not read message \"\(d)\": ") })
    }

    @Test func anUnusableEmailSenderIsSaidAtOpenNotTakenForNoSender() async throws {
        var config = WorkspaceHarness.config()
        config.emailFrom = "ana at example.com"
        do {
            _ = try await WorkspaceHarness(config: config)
            Issue.record("an unusable email_from must not open as \"no email sender\"")
        } catch {
            #expect(userMessage(for: error).hasPrefix("email_from: \"ana at example.com\" is not a usable email address"))
        }
        config.emailFrom = "ana@example.com"
        let h = try await WorkspaceHarness(config: config)
        #expect(h.workspace.emailSender?.address == "ana@example.com")
    }

    @Test func aSendWhoseOwnerCannotBeCheckedStaysQueuedAndIsReported() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(2)
        let send = PendingSend(id: "unknown-1", messageKey: try await h.workspace.templates.defaultMessageKey(), messageText: nil,
                               sender: "Herald",
                               destinations: people.enumerated().map { i, p in
                                   .init(address: String(p.invitableNumbers[0].dropFirst()), messageId: "hc-unknown-\(i)")
                               },
                               personIds: [:])
        _ = try h.workspace.ledger.claim(send.destinations.map { QueuedRecipient(msisdn: "+" + $0.address, personId: nil, correlator: $0.messageId!) },
                                         policy: .default, owner: "p1-0badc0de", chunkSize: 1000) { _ in (send.id, try send.encoded()) }
        // Its lease cannot be opened (a folder where the file should be): whether its process lives is unknown.
        try FileManager.default.createDirectory(at: h.dir.url.appendingPathComponent("leases/p1-0badc0de.lock"),
                                                withIntermediateDirectories: true)
        let next = try await h.reopen()
        defer { next.close() }
        let report = next.reconciledOnOpen
        #expect(report.reconciled == 0 && report.failed == 0)
        #expect(report.summary.hasPrefix("could not check interrupted invitations: "))
        #expect(try next.ledger.queuedInvitations().count == 2)
    }
}
