import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

/// Seen marks that could not be sent survive a restart and go out on the next call.
@Suite struct InboxPendingSeenTests {
    @Test func aFailedSeenMarkIsRetriedByTheNextRunOnTheSameData() async throws {
        let h = try await WorkspaceHarness()
        let first = h.workspace
        let pushed = try await first.engine.pushInbox(user: "ana", topic: "news", title: "Hi", body: "Hello", at: h.clock.now())
        _ = try await first.inbox.fetch(user: "ana")
        await first.engine.injectFaults(.serverError(status: 502), pathPrefix: "/mobile/2/messages/seen")
        await #expect(throws: InboxError.self) { try await first.inbox.markSeen(user: "ana", messageIds: [pushed.messageId]) }
        #expect(await first.inbox.pendingSeenCount(user: "ana") == 1)
        // The platform still counts it unread.
        let before = try await first.platform.fetchInbox(externalUserId: "ana", filter: InboxFilter(), auth: .applicationCode)
        #expect(before.countUnread == 1)
        first.close()

        // Still marked here: the mark waits in the queue, it is not undone.
        #expect(await first.inbox.cached(user: "ana").first?.seen == true)

        // A new process on the same folder sends the queue when it opens.
        let second = try await h.reopen()
        defer { second.close() }
        #expect(await second.inbox.pendingSeenCount(user: "ana") == 0)
        let after = try await second.platform.fetchInbox(externalUserId: "ana", filter: InboxFilter(), auth: .applicationCode)
        #expect(after.countUnread == 0)
        let page = try await second.inbox.fetch(user: "ana")
        #expect(page.counts.unread == 0)
        #expect(page.messages.first?.seen == true)
        #expect(await second.inbox.pendingSeenCount(user: "ana") == 0)

        // And a third run finds nothing left to send.
        let third = try await h.reopen()
        defer { third.close() }
        #expect(await third.inbox.pendingSeenCount(user: "ana") == 0)
    }

    @Test func markingSeenAgainAfterARestartSendsTheQueueAndTheNewMarks() async throws {
        let h = try await WorkspaceHarness()
        let first = h.workspace
        let a = try await first.engine.pushInbox(user: "bo", topic: nil, title: "A", body: "a", at: h.clock.now().addingTimeInterval(-60))
        let b = try await first.engine.pushInbox(user: "bo", topic: nil, title: "B", body: "b", at: h.clock.now())
        _ = try await first.inbox.fetch(user: "bo")
        await first.engine.injectFaults(.timeout, pathPrefix: "/mobile/2/messages/seen")
        await #expect(throws: InboxError.self) { try await first.inbox.markSeen(user: "bo", messageIds: [a.messageId]) }
        first.close()

        let second = try await h.reopen()
        defer { second.close() }
        let result = try await second.inbox.markSeen(user: "bo", messageIds: [b.messageId])
        #expect(result.marked == [b.messageId])
        #expect(await second.inbox.pendingSeenCount(user: "bo") == 0)
        let page = try await second.inbox.fetch(user: "bo")
        #expect(page.counts.unread == 0)
        #expect(Set(page.messages.filter(\.seen).map(\.messageId)) == [a.messageId, b.messageId])
    }

    @Test func aMarkQueuedByAProcessKilledMidCallIsSentByTheNextOpen() async throws {
        let h = try await WorkspaceHarness()
        let first = h.workspace
        let pushed = try await first.engine.pushInbox(user: "cy", topic: nil, title: "T", body: "b", at: h.clock.now())
        _ = try await first.inbox.fetch(user: "cy")
        // What a kill between the local mark and the platform's answer leaves: the mark queued, seen here.
        try SeenOutboxStore(database: first.database).queue([QueuedSeenMark(messageId: pushed.messageId, seenAt: h.clock.now())],
                                                           userId: "cy")
        #expect(try await first.platform.fetchInbox(externalUserId: "cy", filter: InboxFilter(), auth: .applicationCode).countUnread == 1)
        let second = try await h.reopen()
        defer { second.close() }
        #expect(try await second.platform.fetchInbox(externalUserId: "cy", filter: InboxFilter(), auth: .applicationCode).countUnread == 0)
        #expect(await second.inbox.pendingSeenCount(user: "cy") == 0)
        #expect(await second.inbox.cached(user: "cy").first?.seen == true)
    }

    @Test func queuesOfDifferentUsersAreKeptApart() async throws {
        let h = try await WorkspaceHarness()
        let first = h.workspace
        let ana = try await first.engine.pushInbox(user: "ana", topic: nil, title: "A", body: "a", at: h.clock.now())
        let bo = try await first.engine.pushInbox(user: "bo", topic: nil, title: "B", body: "b", at: h.clock.now())
        _ = try await first.inbox.fetch(user: "ana")
        _ = try await first.inbox.fetch(user: "bo")
        await first.engine.injectFaults(.serverError(status: 500), count: 2, pathPrefix: "/mobile/2/messages/seen")
        await #expect(throws: InboxError.self) { try await first.inbox.markSeen(user: "ana", messageIds: [ana.messageId]) }
        await #expect(throws: InboxError.self) { try await first.inbox.markSeen(user: "bo", messageIds: [bo.messageId]) }
        first.close()

        let second = try await h.reopen()
        defer { second.close() }
        #expect(try await second.inbox.fetch(user: "ana").counts.unread == 0)
        #expect(await second.inbox.pendingSeenCount(user: "bo") == 0)
        #expect(try await second.inbox.fetch(user: "bo").counts.unread == 0)
    }
}
