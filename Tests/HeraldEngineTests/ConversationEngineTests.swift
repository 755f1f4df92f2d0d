import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// Conversations on the platform: every reply kept once under the carrier's id, threaded to the latest invitation sent
/// to its number before it, a stop reply both kept and opting out, unread counts and seen marks, the list newest first
/// and paged, every change an event; the wire checks every value (run on SQLite and on PostgreSQL).
@Suite struct ConversationEngineTests {
    static let ana = "385981230001"
    static let ben = "385981230002"
    static let cleo = "385981230003"

    func reply(_ from: String, _ text: String, id: String? = nil, at: Date? = nil, to: String? = "385911000000") -> CarrierReply {
        CarrierReply(messageId: id, from: from, to: to, text: text, receivedAt: at, price: 0.01, currency: "EUR")
    }

    func events(_ h: EngineHarness) async throws -> [PlatformEvent] {
        try await h.engine.events(applicationKey: h.creds.applicationKey, after: 0)
            .map { try HeraldJSON.decode(PlatformEvent.self, from: $0.payload) }
    }

    func replyEvents(_ h: EngineHarness) async throws -> [ReplyWire] {
        try await events(h).compactMap { if case .replyReceived(let reply) = $0 { reply } else { nil } }
    }

    func invite(_ h: EngineHarness, _ number: String, id: String) async throws -> String {
        try await h.invite([SendInvitationBody.Destination(address: number, messageId: id)]).bulkId
    }

    @Test func aReplyIsKeptOnceHoweverOftenItIsReported() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let first = try await h.engine.storeReplies([reply(Self.ana, "who is this?", id: "in-1"), reply(Self.ana, "who is this?", id: "in-1")],
                                                    applicationKey: app)
        #expect(first.map(\.messageId) == ["in-1"], "a batch that holds the same reply twice keeps it once")
        #expect(first.first?.from == Self.ana && first.first?.to == "385911000000" && first.first?.price == 0.01
            && first.first?.currency == "EUR" && first.first?.seen == false)
        h.clock.advance(by: 30)
        let again = try await h.engine.storeReplies([reply(Self.ana, "who is this?", id: "in-1")], applicationKey: app)
        #expect(again.isEmpty, "a repeated report is not kept again, nor answered")
        let list = try await h.engine.conversations(applicationKey: app)
        #expect(list.conversations.count == 1 && list.conversations.first?.replies == 1 && list.unreadTotal == 1)
        #expect(try await replyEvents(h).map(\.messageId) == ["in-1"], "one event for one reply")
        // A reply without an id (the sandbox, the simulated carrier) gets a fresh one each time.
        let plain = try await h.engine.storeReplies([reply(Self.ana, "hello?"), reply(Self.ana, "hello?")], applicationKey: app)
        #expect(plain.count == 2 && Set(plain.map(\.messageId)).count == 2)
        // A sender that is no phone number is left out, the rest kept.
        let mixed = try await h.engine.storeReplies([reply("12", "hi", id: "bad"), reply(Self.ben, "hi", id: "in-2")], applicationKey: app)
        #expect(mixed.map(\.messageId) == ["in-2"])
        await #expect(throws: APIError.self) { try await h.engine.receiveReply(applicationKey: app, from: "12", text: "hi") }
        // A time from the future is taken as now: it does not pin the conversation on top.
        let future = try await h.engine.storeReplies([reply(Self.cleo, "hi", id: "in-3", at: h.clock.now().addingTimeInterval(86_400))],
                                                     applicationKey: app)
        #expect(future.first?.receivedAt == WireTime.text(h.clock.now()))
    }

    @Test func aReplyIsThreadedToTheLatestInvitationSentBeforeIt() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let start = h.clock.now()
        let firstBulk = try await invite(h, Self.ana, id: "m-1")
        h.clock.advance(by: 600)
        let secondBulk = try await invite(h, Self.ana, id: "m-2")
        h.clock.advance(by: 60)
        // Reported late: it arrived between the two invitations, so it answers the first.
        let late = try await h.engine.storeReplies([reply(Self.ana, "yes, see you there", id: "r-1", at: start.addingTimeInterval(120))],
                                                   applicationKey: app)
        #expect(late.first?.bulkId == firstBulk && late.first?.invitationMessageId == "m-1")
        let now = try await h.engine.storeReplies([reply(Self.ana, "and the second one?", id: "r-2")], applicationKey: app)
        #expect(now.first?.bulkId == secondBulk && now.first?.invitationMessageId == "m-2")
        let stranger = try await h.engine.storeReplies([reply(Self.ben, "wrong number", id: "r-3")], applicationKey: app)
        #expect(stranger.first?.bulkId == nil && stranger.first?.invitationMessageId == nil, "a number never invited has no thread")

        // The thread: the invitations and replies of the number in time order.
        let thread = try await h.engine.thread(applicationKey: app, number: "+" + Self.ana)
        #expect(thread.number == Self.ana)
        #expect(thread.entries.map(\.messageId) == ["m-1", "r-1", "m-2", "r-2"], "\(thread.entries.map(\.messageId))")
        #expect(thread.entries.map(\.kind) == [.sent, .reply, .sent, .reply])
        #expect(thread.entries[0].bulkId == firstBulk && thread.entries[0].status != nil && !thread.entries[0].text.isEmpty)
        #expect(thread.entries[1].text == "yes, see you there" && thread.entries[1].seen == false && thread.entries[1].bulkId == firstBulk)
        #expect(thread.unread == 2 && !thread.hasMore)
        // Paged: the newest two, then the two before them.
        let newest = try await h.engine.thread(applicationKey: app, number: Self.ana, limit: 2)
        #expect(newest.entries.map(\.messageId) == ["m-2", "r-2"] && newest.hasMore)
        let older = try await h.engine.thread(applicationKey: app, number: Self.ana, before: WireTime.date(newest.entries[0].at), limit: 2)
        #expect(older.entries.map(\.messageId) == ["m-1", "r-1"] && !older.hasMore)
        // A number nothing was exchanged with has an empty thread.
        #expect(try await h.engine.thread(applicationKey: app, number: Self.cleo).entries.isEmpty)
    }

    @Test func aStopReplyIsKeptAndOptsTheNumberOut() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        _ = try await invite(h, Self.ana, id: "m-1")
        let stored = try await h.engine.storeReplies([reply(Self.ana, "Stop. Please.", id: "r-stop")], applicationKey: app)
        #expect(stored.first?.optedOut == true)
        let optOuts = try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts
        #expect(optOuts.map(\.number) == ["+" + Self.ana] && optOuts.first?.source == "reply: STOP")
        #expect(try await h.engine.thread(applicationKey: app, number: Self.ana).entries.last?.text == "Stop. Please.")
        // The old way in (the sandbox, the server's console) keeps the reply too.
        let chatty = try await h.engine.receiveReply(applicationKey: app, from: "+" + Self.ben, text: "see you soon")
        #expect(chatty == nil, "it did not say stop")
        let bens = try await h.engine.thread(applicationKey: app, number: Self.ben)
        #expect(bens.entries.map(\.text) == ["see you soon"])
        let stopped = try await h.engine.receiveReply(applicationKey: app, from: "+" + Self.cleo, text: "unsubscribe")
        #expect(stopped?.source == "reply: UNSUBSCRIBE")
        // A repeated report of the stop changes nothing: a number taken off the list stays off.
        _ = try await h.call(RemoveOptOut(secret: h.creds.secret, number: "+" + Self.ana))
        let repeated = try await h.engine.storeReplies([reply(Self.ana, "Stop. Please.", id: "r-stop")], applicationKey: app)
        #expect(repeated.isEmpty)
        #expect(try await h.call(ListOptOuts(secret: h.creds.secret)).optOuts.map(\.number) == ["+" + Self.cleo])
    }

    @Test func unreadRepliesAreCountedUntilMarkedSeen() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        for i in 1...3 {
            h.clock.advance(by: 10)
            _ = try await h.engine.storeReplies([reply(Self.ana, "ana \(i)", id: "a-\(i)")], applicationKey: app)
        }
        for i in 1...2 {
            h.clock.advance(by: 10)
            _ = try await h.engine.storeReplies([reply(Self.ben, "ben \(i)", id: "b-\(i)")], applicationKey: app)
        }
        var list = try await h.engine.conversations(applicationKey: app)
        #expect(list.unreadTotal == 5 && list.conversations.map(\.unread) == [2, 3])

        let some = try await h.engine.markSeen(applicationKey: app, number: Self.ana, upTo: "a-2")
        #expect(some == MarkSeenResult(marked: 2, unread: 1, unreadTotal: 3))
        let thread = try await h.engine.thread(applicationKey: app, number: Self.ana)
        #expect(thread.entries.map(\.seen) == [true, true, false] && thread.unread == 1)
        let rest = try await h.engine.markSeen(applicationKey: app, number: "+" + Self.ana)
        #expect(rest == MarkSeenResult(marked: 1, unread: 0, unreadTotal: 2))
        let nothing = try await h.engine.markSeen(applicationKey: app, number: Self.ana)
        #expect(nothing.marked == 0)
        // Only the marks that changed something are events.
        let seen = try await events(h).compactMap { event -> [Int]? in
            if case .conversationSeen(let number, let unread, let total) = event, number == Self.ana { [unread, total] } else { nil }
        }
        #expect(seen == [[1, 3], [0, 2]])

        list = try await h.engine.conversations(applicationKey: app, filter: ConversationFilter(unreadOnly: true))
        #expect(list.conversations.map(\.number) == [Self.ben] && list.unreadTotal == 2)
        // A new reply is unread again.
        h.clock.advance(by: 10)
        _ = try await h.engine.storeReplies([reply(Self.ana, "ana 4", id: "a-4")], applicationKey: app)
        list = try await h.engine.conversations(applicationKey: app, filter: ConversationFilter(unreadOnly: true))
        #expect(list.conversations.map(\.number) == [Self.ana, Self.ben] && list.unreadTotal == 3)

        await #expect(throws: APIError.notFound("no replies from +\(Self.cleo)")) {
            try await h.engine.markSeen(applicationKey: app, number: Self.cleo)
        }
        await #expect(throws: APIError.self) { try await h.engine.markSeen(applicationKey: app, number: Self.ana, upTo: "b-1") }
    }

    @Test func theListIsNewestFirstPagedAndCountsWhatWasSent() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        let numbers = (0..<5).map { "38598124000\($0)" }
        for number in numbers {
            h.clock.advance(by: 5)
            _ = try await h.engine.storeReplies([reply(number, "from \(number)")], applicationKey: app)
        }
        let first = try await h.engine.conversations(applicationKey: app, filter: ConversationFilter(limit: 2))
        #expect(first.conversations.map(\.number) == [numbers[4], numbers[3]] && first.hasMore)
        let next = try await h.engine.conversations(
            applicationKey: app, filter: ConversationFilter(before: WireTime.date(first.conversations[1].lastAt), limit: 2))
        #expect(next.conversations.map(\.number) == [numbers[2], numbers[1]] && next.hasMore)
        let last = try await h.engine.conversations(
            applicationKey: app, filter: ConversationFilter(before: WireTime.date(next.conversations[1].lastAt), limit: 2))
        #expect(last.conversations.map(\.number) == [numbers[0]] && !last.hasMore)

        // A message sent to a number is part of its conversation: latest first, counted.
        h.clock.advance(by: 5)
        _ = try await invite(h, numbers[0], id: "answer-1")
        let top = try await h.engine.conversations(applicationKey: app, filter: ConversationFilter(limit: 1)).conversations[0]
        #expect(top.number == numbers[0] && !top.lastIsReply && top.sent == 1 && top.replies == 1 && top.unread == 1)
        // A number only invited is no conversation in the list, but asked for by number it answers.
        _ = try await invite(h, Self.cleo, id: "only-sent")
        let all = try await h.engine.conversations(applicationKey: app)
        #expect(!all.conversations.map(\.number).contains(Self.cleo) && all.conversations.count == 5)
        let cleo = try await h.engine.conversations(applicationKey: app, filter: ConversationFilter(from: "+" + Self.cleo))
        #expect(cleo.conversations.map(\.sent) == [1] && cleo.conversations.first?.replies == 0)
        // Every reply kept is an event, in order.
        #expect(try await replyEvents(h).map(\.from) == numbers)
    }

    @Test func theWireChecksEveryValueAndMasksForViewers() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let app = h.creds.applicationKey
        _ = try await h.engine.storeReplies([reply(Self.ana, "call me on +385 98 123 0009", id: "w-1")], applicationKey: app)
        let list = try await h.call(ListConversations(secret: h.creds.secret, filter: ConversationFilter(from: "+" + Self.ana)))
        #expect(list.conversations.map(\.number) == [Self.ana])
        let thread = try await h.call(GetConversation(secret: h.creds.secret, number: "+" + Self.ana, limit: 10))
        #expect(thread.entries.map(\.messageId) == ["w-1"])

        let bad: [(String, [String: String], String)] = [
            ("/1/social-invite/conversations", ["limit": "0"], "limit"),
            ("/1/social-invite/conversations", ["limit": "1001"], "limit"),
            ("/1/social-invite/conversations", ["unread": "maybe"], "unread"),
            ("/1/social-invite/conversations", ["from": "ana"], "from"),
            ("/1/social-invite/conversations", ["before": "yesterday"], "before"),
            ("/1/social-invite/conversations/abc", [:], "number"),
            ("/1/social-invite/conversations/\(Self.ana)", ["limit": "-1"], "limit"),
            ("/1/social-invite/conversations/\(Self.ana)", ["before": "2026-13-45"], "before"),
        ]
        for (path, query, field) in bad {
            let response = await h.raw(.get, path, auth: "App \(h.creds.secret)", query: query)
            #expect(response.status == 400, "\(path) \(query): \(response.status)")
            guard case .badRequest(_, let errors) = APIError(response: response) else {
                Issue.record("\(path) \(query): not a 400 envelope")
                continue
            }
            #expect(errors[field] != nil, "\(path) \(query): \(errors)")
        }
        let marked = await h.raw(.post, "/1/social-invite/conversations/\(Self.ana)/seen", json: #"{"upTo": 7}"#,
                                 auth: "App \(h.creds.secret)")
        #expect(marked.status == 400, "a malformed body is refused, not ignored")
        let all = try await h.call(MarkConversationSeen(secret: h.creds.secret, number: Self.ana))
        #expect(all == MarkSeenResult(marked: 1, unread: 0, unreadTotal: 0))

        // A caller who sees numbers masked reads them masked, in the list, the thread and the texts.
        var viewer = APICaller(keyId: "k-vera", name: "vera", role: .viewer)
        viewer.masksNumbers = true
        let masked = try await h.call(ListConversations(secret: h.creds.secret), as: viewer)
        let maskedThread = try await h.call(GetConversation(secret: h.creds.secret, number: Self.ana), as: viewer)
        let texts = [masked.conversations[0].number, masked.conversations[0].lastText, maskedThread.number, maskedThread.entries[0].text]
        for text in texts { #expect(!text.contains("1230001") && !text.contains("123 0009"), "\(text)") }
        #expect(masked.conversations[0].number.contains("•••"))
        let event = try #require(try await events(h).first { $0.type == PlatformEvent.replyReceivedType })
        guard case .replyReceived(let maskedReply) = event.maskingNumbers() else { Issue.record("not a reply"); return }
        #expect(!maskedReply.from.contains("1230001") && maskedReply.from.contains("•••") && !maskedReply.text.contains("123 0009"))
    }
}
