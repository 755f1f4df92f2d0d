import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

@Suite struct InboxServiceTests {
    /// Pushes `count` messages one minute apart, newest last; every third is in topic "promo".
    func seed(_ h: WorkspaceHarness, user: String, count: Int, start: Date? = nil) async throws -> [InboxMessage] {
        let base = start ?? h.clock.now().addingTimeInterval(-Double(count) * 60)
        var out: [InboxMessage] = []
        for i in 0..<count {
            out.append(try await h.workspace.engine.pushInbox(user: user, topic: i % 3 == 0 ? "promo" : "news", title: "T\(i)",
                                                              body: "Body \(i)", at: base.addingTimeInterval(Double(i) * 60)))
        }
        return out
    }

    @Test func fetchesWithFiltersCountsAndCachesLocally() async throws {
        let h = try await WorkspaceHarness()
        _ = try await seed(h, user: "ana", count: 9)
        let page = try await h.workspace.inbox.fetch(user: "ana", filter: InboxFilter(topic: "promo", limit: 2))
        #expect(page.messages.map(\.title) == ["T6", "T3"])
        #expect(page.counts.total == 9)
        #expect(page.counts.unread == 9)
        #expect(page.counts.totalFiltered == 3)
        #expect(page.hasMore)
        #expect(!page.fromCache)
        #expect(await h.workspace.inbox.cached(user: "ana").map(\.title) == ["T6", "T3"])
        // The user id is case-sensitive.
        #expect(try await h.workspace.inbox.fetch(user: "Ana").messages.isEmpty)
    }

    @Test func pagingWalksTheWholeInboxWithoutLosingMessagesThatShareASendTime() async throws {
        let h = try await WorkspaceHarness()
        let t = h.clock.now().addingTimeInterval(-3600)
        // Five messages at the very same millisecond, straddling the page boundary, plus others.
        for i in 0..<5 {
            try await h.workspace.engine.pushInbox(user: "u", topic: nil, title: "same\(i)", body: "b", at: t)
        }
        for i in 0..<4 {
            try await h.workspace.engine.pushInbox(user: "u", topic: nil, title: "new\(i)", body: "b",
                                                   at: t.addingTimeInterval(Double(i + 1) * 10))
        }
        for i in 0..<3 {
            try await h.workspace.engine.pushInbox(user: "u", topic: nil, title: "old\(i)", body: "b",
                                                   at: t.addingTimeInterval(-Double(i + 1) * 10))
        }
        var page = try await h.workspace.inbox.fetch(user: "u", filter: InboxFilter(limit: 6))
        var all = page.messages
        var pages = 1
        while page.hasMore && pages < 10 {
            page = try await h.workspace.inbox.nextPage(after: page)
            all += page.messages
            pages += 1
        }
        #expect(all.count == 12)
        #expect(Set(all.map(\.messageId)).count == 12)
        #expect(all.map(\.sendDateTime) == all.map(\.sendDateTime).sorted(by: >))
        #expect(all.last?.title == "old2")
    }

    @Test func markSeenSkipsSeenIdsAndRollsBackThenRetriesOnFailure() async throws {
        let h = try await WorkspaceHarness()
        let counting = CountingPlatform(h.workspace.platform)
        let service = InboxService(platform: counting, cache: InboxCacheStore(database: h.workspace.database),
                                   bus: h.workspace.bus, auth: .applicationCode, clock: h.clock)
        let msgs = try await seed(h, user: "ana", count: 3)
        _ = try await service.fetch(user: "ana")
        let first = try await service.markSeen(user: "ana", messageIds: [msgs[0].messageId])
        #expect(first.marked == [msgs[0].messageId])
        let again = try await service.markSeen(user: "ana", messageIds: [msgs[0].messageId, msgs[1].messageId])
        #expect(again.alreadySeen == [msgs[0].messageId])
        #expect(again.marked == [msgs[1].messageId])
        #expect(counting.count("markSeen") == 2)

        // A mark the platform cannot take now stays marked locally and is kept for later.
        await h.workspace.engine.injectFaults(.serverError(status: 502), pathPrefix: "/mobile/2/messages/seen")
        await #expect(throws: InboxError.self) { try await service.markSeen(user: "ana", messageIds: [msgs[2].messageId]) }
        #expect(await service.cached(user: "ana").first { $0.messageId == msgs[2].messageId }?.seen == true)
        #expect(await service.pendingSeenCount(user: "ana") == 1)
        // The next read retries it first.
        let page = try await service.fetch(user: "ana")
        #expect(await service.pendingSeenCount(user: "ana") == 0)
        #expect(page.counts.unread == 0)
        #expect(page.messages.allSatisfy { $0.seen })
    }

    @Test func theCacheAnswersWhenThePlatformCannotBeReached() async throws {
        let h = try await WorkspaceHarness()
        _ = try await seed(h, user: "ana", count: 4)
        _ = try await h.workspace.inbox.fetch(user: "ana")
        await h.workspace.engine.injectFaults(.serverError(status: 503), pathPrefix: "/mobile/1/user")
        let page = try await h.workspace.inbox.fetch(user: "ana")
        #expect(page.fromCache)
        #expect(page.messages.count == 4)
        #expect(page.counts.unread == 4)
    }

    @Test func aJWTOnlyApplicationTellsWhichConfigKeysToSet() async throws {
        let h = try await WorkspaceHarness()
        try await h.workspace.engine.setInboxAuthMode(.jwt, applicationKey: h.workspace.credentials.applicationKey)
        do {
            _ = try await h.workspace.inbox.fetch(user: "ana")
            Issue.record("an application code must be refused")
        } catch {
            #expect(error == .accessTokenMissing)
            #expect(error.userMessage.contains("inbox.jwt_key_id"))
            #expect(error.userMessage.contains("inbox.jwt_secret"))
        }
    }

    @Test func aConfiguredJWTReadsTheInboxAndARefusedTokenIsRetriedOnceWithAFreshOne() async throws {
        let dir = try TempDir()
        let clock = ManualClock()
        let setup = try await WorkspaceHarness(dir: dir, clock: clock)
        let key = try await setup.workspace.engine.generateJWTKey(applicationKey: setup.workspace.credentials.applicationKey,
                                                                  keyId: "k1")
        try await setup.workspace.engine.setInboxAuthMode(.jwt, applicationKey: setup.workspace.credentials.applicationKey)
        _ = try await seed(setup, user: "ana", count: 2)

        let ws = try await setup.reopen(config: WorkspaceHarness.config(jwtKeyId: "k1", jwtSecret: key.secretHex))
        let page = try await ws.inbox.fetch(user: "ana")
        #expect(page.messages.count == 2)
        // Two reads in a row both work: every call has its own token (the platform takes each jti once).
        #expect(try await ws.inbox.fetch(user: "ana").messages.count == 2)
        #expect(await ws.inbox.tokensMinted == 2)

        // A token refused once: a fresh one is minted and the call retried, once.
        let counting = CountingPlatform(ws.platform)
        counting.refuseBearerFetches = 1
        guard case .jwt(let tokenConfig) = ws.inbox.auth else { Issue.record("expected JWT auth"); return }
        let service = InboxService(platform: counting, cache: InboxCacheStore(database: ws.database), bus: ws.bus,
                                   auth: .jwt(tokenConfig), clock: clock)
        #expect(try await service.fetch(user: "ana").messages.count == 2)
        #expect(counting.count("fetchInbox") == 2)
        #expect(await service.tokensMinted == 2)
    }

    @Test func aWrongSecretIsRefusedAfterExactlyOneRetryWithAClearMessage() async throws {
        let setup = try await WorkspaceHarness()
        _ = try await setup.workspace.engine.generateJWTKey(applicationKey: setup.workspace.credentials.applicationKey,
                                                            keyId: "k1")
        let wrong = String(repeating: "ab", count: 32)
        let ws = try await setup.reopen(config: WorkspaceHarness.config(jwtKeyId: "k1", jwtSecret: wrong))
        do {
            _ = try await ws.inbox.fetch(user: "ana")
            Issue.record("a token signed with the wrong secret must be refused")
        } catch {
            #expect(error == .tokenRefused(keyId: "k1", keyIdConfigKey: "inbox.jwt_key_id", secretConfigKey: "inbox.jwt_secret"))
            #expect(error.userMessage.contains("refused the inbox token twice"))
        }
        #expect(await ws.inbox.tokensMinted == 2)
    }

    @Test func aShortSecretIsReportedWithItsConfigKeyNotACrash() async throws {
        let setup = try await WorkspaceHarness()
        let ws = try await setup.reopen(config: WorkspaceHarness.config(jwtKeyId: "k1", jwtSecret: "abcd"))
        do {
            _ = try await ws.inbox.fetch(user: "ana")
            Issue.record("a 2-byte secret must be refused")
        } catch {
            #expect(error.userMessage.contains("inbox.jwt_secret"))
            #expect(error.userMessage.contains("at least 32 bytes"))
        }
    }
}
