import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct InboxTests {
    static let t0: Int64 = 1_767_225_600_000

    /// Five messages one minute apart (oldest first): promo, news, promo, news, promo; the oldest two seen.
    func seeded() async throws -> EngineHarness {
        let h = try await EngineHarness.make()
        for i in 0..<5 {
            try await h.engine.pushInbox(user: "Ana", topic: i % 2 == 0 ? "promo" : "news", title: "T\(i)", body: "B\(i)",
                                         at: Date(epochMilliseconds: Self.t0 + Int64(i) * 60_000), seen: i < 2)
        }
        return h
    }

    func fetch(_ h: EngineHarness, user: String = "Ana", topic: String? = nil, from: Int64? = nil, to: Int64? = nil,
               limit: Int? = nil) async throws(APIError) -> InboxResponse {
        try await h.call(FetchInbox(credential: .app(h.creds.applicationCode), externalUserId: user, topic: topic,
                                    from: from.map { Date(epochMilliseconds: $0) }, to: to.map { Date(epochMilliseconds: $0) },
                                    limit: limit))
    }

    @Test func literalJSONNewestFirstWithCounts() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        let r = await h.raw(.get, "/mobile/1/user/Ana/inbox/apns/messages", auth: "App \(h.creds.applicationCode)")
        #expect(r.status == 200)
        let root = jsonObject(r.body)
        #expect(root["countTotal"] as? Int == 5)
        #expect(root["countUnread"] as? Int == 3)
        #expect(root["countTotalFiltered"] as? Int == 5)
        #expect(root["countUnreadFiltered"] as? Int == 3)
        let messages = try #require(root["messages"] as? [[String: Any]])
        #expect(messages.count == 5)
        let first = messages[0]
        #expect(first["silent"] as? Bool == false)
        #expect(((first["aps"] as? [String: Any])?["alert"] as? [String: Any])?["title"] as? String == "T4")
        let internalData = first["internalData"] as? [String: Any]
        #expect((internalData?["sendDateTime"] as? NSNumber)?.int64Value == Self.t0 + 4 * 60_000)
        #expect((internalData?["inbox"] as? [String: Any])?["topic"] as? String == "promo")
        #expect((internalData?["inbox"] as? [String: Any])?["seen"] as? Bool == false)
    }

    @Test func fromIsInclusiveToIsExclusive() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        let r = try await fetch(h, from: Self.t0 + 60_000, to: Self.t0 + 3 * 60_000)
        #expect(r.messages.map(\.title) == ["T2", "T1"])
        #expect(r.countTotal == 5 && r.countUnread == 3)
        #expect(r.countTotalFiltered == 2 && r.countUnreadFiltered == 1)
    }

    @Test func topicAndLimitAndPagingByOldestSendTime() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        let promo = try await fetch(h, topic: "promo")
        #expect(promo.messages.map(\.title) == ["T4", "T2", "T0"])
        #expect(promo.countTotalFiltered == 3 && promo.countUnreadFiltered == 2)
        let page1 = try await fetch(h, limit: 2)
        #expect(page1.messages.map(\.title) == ["T4", "T3"])
        #expect(page1.countTotalFiltered == 5)
        let page2 = try await fetch(h, to: page1.messages.last?.sendDateTime, limit: 2)
        #expect(page2.messages.map(\.title) == ["T2", "T1"])
        let page3 = try await fetch(h, to: page2.messages.last?.sendDateTime, limit: 2)
        #expect(page3.messages.map(\.title) == ["T0"])
    }

    @Test func defaultLimitIsTwenty() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        #expect(try await h.engine.seedDemo(user: "demo", count: 25) == 25)
        #expect(try await h.engine.seedDemo(user: "demo", count: 25) == 0)
        let r = try await fetch(h, user: "demo")
        #expect(r.messages.count == 20)
        #expect(r.countTotal == 25)
        let times = r.messages.map(\.sendDateTime)
        #expect(times == times.sorted(by: >))
    }

    @Test func userIdsAreCaseSensitiveAndMayHoldAnyCharacter() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        try await h.engine.pushInbox(user: "ana/ä ?#%", topic: nil, title: nil, body: "odd")
        #expect(try await fetch(h, user: "ana").countTotal == 0)
        let odd = try await fetch(h, user: "ana/ä ?#%")
        #expect(odd.messages.map(\.body) == ["odd"])
        #expect(odd.messages.first?.topic == nil)
    }

    @Test func badQueriesAreBadRequests() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        for query in [["limit": "0"], ["limit": "lots"], ["dateTimeFrom": "yesterday"], ["limit": "1001"]] {
            let r = await h.raw(.get, "/mobile/1/user/Ana/inbox/apns/messages", auth: "App \(h.creds.applicationCode)", query: query)
            #expect(r.status == 400, "query \(query)")
        }
    }

    @Test func wrongCodeOrSecretIsUnauthorized() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        await #expect(throws: APIError.unauthorized) {
            try await h.call(FetchInbox(credential: .app(h.creds.secret), externalUserId: "Ana"))
        }
        let none = await h.raw(.get, "/mobile/1/user/Ana/inbox/apns/messages")
        #expect(none.status == 401)
    }

    @Test func seenMarksOnlyTheUsersMessagesAndUpdatesCounts() async throws {
        let h = try await seeded()
        defer { h.cleanUp() }
        let before = try await fetch(h)
        let unread = before.messages.filter { !$0.seen }.map(\.messageId)
        let json = """
        {"externalUserId": "Ana", "messages": [{"messageId": "\(unread[0])", "timestampDelta": 5, "inbox": true},
                                                {"messageId": "unknown-id", "timestampDelta": 0, "inbox": true}]}
        """
        let r = await h.raw(.post, "/mobile/2/messages/seen", json: json, auth: "App \(h.creds.applicationCode)")
        #expect(r.status == 200)
        #expect(r.body.isEmpty)
        let after = try await fetch(h)
        #expect(after.countUnread == before.countUnread - 1)
        #expect(after.messages.first { $0.messageId == unread[0] }?.seen == true)
        // Another user cannot mark Ana's messages.
        _ = try await h.call(MarkInboxSeen(applicationCode: h.creds.applicationCode,
                                           body: SeenBody(externalUserId: "ana", messages: [.init(messageId: unread[1], timestampDelta: 0)])))
        #expect(try await fetch(h).countUnread == after.countUnread)
        await #expect(throws: APIError.unauthorized) {
            try await h.call(MarkInboxSeen(applicationCode: "bad", body: SeenBody(externalUserId: "Ana", messages: [])))
        }
    }
}
