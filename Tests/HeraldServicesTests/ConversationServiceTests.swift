import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// Conversations on the real embedded engine: replies kept and named after the address book, threaded with the
/// invitations before them, counted unread until marked seen, answered through the ledger, and told on the bus (and by
/// a notice, once) when they arrive from another process.
@Suite struct ConversationServiceTests {
    /// Events the bus carried, for waiting on one.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [HeraldEvent] = []
        var subscription: EventSubscription?

        init(_ bus: EventBus) { subscription = bus.subscribe { [weak self] event in self?.lock.withLock { self?.events.append(event) } } }

        var replies: [RepliesChange] {
            lock.withLock { events.compactMap { if case .repliesChanged(let change) = $0 { return change } else { return nil } } }
        }

        /// Waits (up to `seconds`) for a reply change that `matches`.
        func reply(within seconds: TimeInterval = 5, _ matches: (RepliesChange) -> Bool) async throws -> RepliesChange {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if let found = replies.first(where: matches) { return found }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            throw CancellationError()
        }
    }

    /// A reply the simulated carrier receives, as `herald sandbox reply` hands it over.
    static func reply(_ ws: Workspace, from: String, _ text: String) async throws {
        _ = try await #require(ws.connection.sandbox).receiveReply(from: from, text: text)
    }

    @Test func aReplyFromAContactsNumberShowsWithTheirNameAndAnUnknownNumberWithout() async throws {
        let h = try await WorkspaceHarness()
        let ana = try h.person("Ana", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(1), "yes, see you there")
        h.clock.advance(by: 60)
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(2), "who is this?")

        let page = try await h.workspace.conversations.list()
        #expect(page.rows.map(\.number) == [WorkspaceHarness.mobile(2), WorkspaceHarness.mobile(1)], "newest first")
        #expect(page.rows.map(\.name) == [nil, "Ana Horvat"])
        #expect(page.rows.map(\.personId) == [nil, ana.id])
        #expect(page.rows.map(\.lastText) == ["who is this?", "yes, see you there"])
        #expect(page.rows.allSatisfy { $0.lastIsReply && $0.unread == 1 && $0.replies == 1 })
        #expect(page.unreadTotal == 2)
        #expect(await h.workspace.conversations.unreadTotal == 2)

        let unknown = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(2))
        #expect(unknown.name == nil && unknown.personId == nil && unknown.title == WorkspaceHarness.mobile(2))
        // Any form the parser reads names the same conversation.
        let national = try await h.workspace.conversations.thread(number: "091 100 0001")
        #expect(national.number == WorkspaceHarness.mobile(1) && national.name == "Ana Horvat")
        #expect(national.entries.map(\.text) == ["yes, see you there"])

        let one = try await h.workspace.conversations.list(from: "091 100 0001")
        #expect(one.rows.map(\.number) == [WorkspaceHarness.mobile(1)])

        // The unknown number added to the book (here, or by another process) is named on the next read.
        let other = try await h.reopen()
        let marko = try other.contacts.insert(Person(firstName: "Marko", lastName: "Kovač",
                                                         phones: [LabeledPhone(label: "mobile", number: other.parser.parse(WorkspaceHarness.mobile(2)))]))
        other.close()
        let named = try await h.workspace.conversations.list()
        #expect(named.rows.map(\.name) == ["Marko Kovač", "Ana Horvat"] && named.rows.first?.personId == marko.id)
    }

    @Test func aBadNumberIsRefusedWithAReason() async throws {
        let h = try await WorkspaceHarness()
        await #expect(throws: ConversationError.self) { try await h.workspace.conversations.thread(number: "not a number") }
        do {
            _ = try await h.workspace.conversations.markSeen(number: "12ab")
            Issue.record("a bad number was taken")
        } catch let error as ConversationError {
            #expect(error.userMessage.contains("is not a phone number"))
        }
    }

    @Test func aThreadIsTheInvitationsAndRepliesOfOneNumberOldestFirst() async throws {
        let h = try await WorkspaceHarness()
        let marko = try h.person("Marko", "Kovač", numbers: [WorkspaceHarness.mobile(3)])
        let first = try #require(try await h.workspace.invites.invite(person: marko).bulkId)
        h.clock.advance(by: 60)
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(3), "who is this?")
        h.clock.advance(by: 3600)
        // Again, whatever the first's status: the resend policy an answer uses.
        let again = try await h.workspace.invites.invite(person: marko, options: InviteOptions(policy: ResendPolicy.answer))
        let second = try #require(again.bulkId, "\(again.skipped)")
        h.clock.advance(by: 60)
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(3), "ah, Ana! see you there")

        let thread = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(3))
        #expect(thread.entries.map(\.kind) == [.sent, .reply, .sent, .reply])
        #expect(thread.entries.map(\.at) == thread.entries.map(\.at).sorted(), "oldest first")
        // Each reply belongs to the latest invitation sent to the number before it.
        #expect(thread.entries.map(\.bulkId) == [first, first, second, second])
        #expect(thread.entries.filter { $0.kind == .sent }.allSatisfy { $0.status != nil && $0.seen })
        #expect(thread.entries.filter { $0.kind == .reply }.allSatisfy { $0.status == nil && !$0.seen })
        #expect(thread.unread == 2 && !thread.hasMore)

        let newest = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(3), limit: 2)
        #expect(newest.entries.map(\.kind) == [.sent, .reply] && newest.hasMore, "the newest two, oldest first")
        #expect(newest.entries.last?.text == "ah, Ana! see you there")
    }

    @Test func repliesStayUnreadUntilMarkedSeenAndTheBusHearsOfIt() async throws {
        let h = try await WorkspaceHarness()
        try h.person("Ana", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(1), "yes")
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(1), "and a friend?")
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(2), "who?")
        let heard = Heard(h.workspace.bus)

        #expect(try await h.workspace.conversations.list(unreadOnly: true).rows.count == 2)
        // Reading a thread marks nothing.
        _ = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(1))
        #expect(try await h.workspace.conversations.list().unreadTotal == 3)

        #expect(try await h.workspace.conversations.markSeen(number: WorkspaceHarness.mobile(1)) == 2)
        #expect(await h.workspace.conversations.unreadTotal == 1)
        let change = try await heard.reply { $0.reply == nil }
        #expect(change.number == WorkspaceHarness.mobile(1) && change.unreadTotal == 1)
        let thread = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(1))
        #expect(thread.unread == 0 && thread.entries.allSatisfy(\.seen))
        let unread = try await h.workspace.conversations.list(unreadOnly: true)
        #expect(unread.rows.map(\.number) == [WorkspaceHarness.mobile(2)] && unread.unreadTotal == 1)
        #expect(try await h.workspace.conversations.markSeen(number: WorkspaceHarness.mobile(1)) == 0, "nothing left to mark")
    }

    @Test func anAnswerGoesThroughTheLedgerAndShowsInTheThreadAsSent() async throws {
        let h = try await WorkspaceHarness()
        let ana = try h.person("Ana", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(1), "what time?")
        h.clock.advance(by: 30)
        let text = "At 8 {RECEIVER_NAME}: bring <nothing>"
        let result = try await h.workspace.conversations.answer(number: "091 100 0001", text: text)
        let bulkId = try #require(result.bulkId)
        #expect(result.recipients.map(\.personId) == [ana.id])
        // Journaled in the ledger with its text, as written.
        #expect(try h.workspace.ledger.recipients(ofBulk: bulkId).map(\.text) == [text])
        let thread = try await h.workspace.conversations.thread(number: WorkspaceHarness.mobile(1))
        let last = try #require(thread.entries.last)
        #expect(thread.entries.map(\.kind) == [.reply, .sent])
        #expect(last.text == text && last.bulkId == bulkId && last.status != nil)
        let row = try #require(try await h.workspace.conversations.list().rows.first)
        #expect(!row.lastIsReply && row.lastText == text && row.unread == 1, "answering marks nothing seen")
    }

    @Test func aReadOnlyWorkspaceReadsButNeitherAnswersNorMarks() async throws {
        let h = try await WorkspaceHarness()
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(1), "hello?")
        var config = WorkspaceHarness.config()
        config.readOnlyReason = "read-only mode is on"
        h.workspace.close()
        let ws = try await h.reopen(config: config)
        defer { ws.close() }
        #expect(try await ws.conversations.list().unreadTotal == 1)
        await #expect(throws: ConversationError.readOnly("read-only mode is on")) {
            try await ws.conversations.markSeen(number: WorkspaceHarness.mobile(1))
        }
        await #expect(throws: ConversationError.readOnly("read-only mode is on")) {
            try await ws.conversations.answer(number: WorkspaceHarness.mobile(1), text: "hi")
        }
        #expect(try ws.ledger.bulks().isEmpty)
        #expect(try await ws.conversations.list().unreadTotal == 1)
    }

    @Test func theAnswerSenderWarnsWhenPeopleCannotReplyToIt() {
        let alpha = AnswerSender(configured: "Herald")
        #expect(alpha.kind == .alphanumeric && alpha.warning?.contains("cannot reply") == true)
        let numeric = AnswerSender(configured: "+385911234567")
        #expect(numeric.kind == .numeric && numeric.warning == nil && numeric.label == "+385911234567")
        let none = AnswerSender(configured: nil)
        #expect(none.sender == nil && none.warning == nil && none.label == "the account's number")
        #expect(AnswerSender(configured: "bad sender!").warning?.contains("not a valid sender ID") == true)
    }

    @Test func theWorkspacesAnswerSenderIsItsConfiguredOne() async throws {
        let h = try await WorkspaceHarness()
        #expect(h.workspace.conversations.answerSender() == AnswerSender(configured: "Herald"))
        var config = WorkspaceHarness.config()
        config.sender = "+385911234567"
        let other = try await h.reopen(config: config)
        defer { other.close() }
        #expect(other.conversations.answerSender().warning == nil)
    }

    @Test func aReplyFromAnotherProcessReachesTheBusWithNoCallAndIsAnnouncedOnce() async throws {
        let h = try await WorkspaceHarness()
        try h.person("Ana", "Horvat", numbers: [WorkspaceHarness.mobile(1)])
        let heard = Heard(h.workspace.bus)
        let watcher = h.workspace.attention(AttentionSettings())
        let notices = LockedList<AttentionNotice>()
        let events = h.workspace.bus.stream()
        let watching = Task.detached { await watcher.run(events: events) { notices.append($0) } }
        defer { watching.cancel() }
        try await h.workspace.startFeed()

        // Another Herald on the same data folder (`herald sandbox reply` in another shell).
        let other = try await h.reopen()
        try await Self.reply(other, from: WorkspaceHarness.mobile(1), "yes, see you there")
        other.close()

        let change = try await heard.reply { $0.reply != nil }
        #expect(change.number == WorkspaceHarness.mobile(1) && change.name == "Ana Horvat")
        #expect(change.reply?.text == "yes, see you there" && change.reply?.kind == .reply && change.reply?.seen == false)
        #expect(change.unreadTotal == 1 && !change.optedOut)
        #expect(await h.workspace.conversations.unreadTotal == 1)

        let end = Date().addingTimeInterval(5)
        while notices.items.isEmpty && Date() < end { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(notices.items.map(\.line) == ["reply from Ana Horvat: yes, see you there"])
        // A second watcher (another process's) hearing the same change gives no second notice.
        let second = h.workspace.attention(AttentionSettings())
        let again = LockedList<AttentionNotice>()
        let stream = AsyncStream<HeraldEvent> { continuation in
            continuation.yield(.repliesChanged(change))
            continuation.finish()
        }
        await second.run(events: stream) { again.append($0) }
        #expect(again.items.isEmpty)

        // A stop word is told as such; seen marks made elsewhere arrive too.
        try await Self.reply(h.workspace, from: WorkspaceHarness.mobile(2), "STOP")
        let stop = try await heard.reply { $0.number == WorkspaceHarness.mobile(2) && $0.reply != nil }
        #expect(stop.optedOut && stop.name == nil && stop.unreadTotal == 2)
        let marker = try await h.reopen()
        _ = try await marker.conversations.markSeen(number: WorkspaceHarness.mobile(1))
        marker.close()
        let seen = try await heard.reply { $0.reply == nil && $0.number == WorkspaceHarness.mobile(1) }
        #expect(seen.unreadTotal == 1)
    }
}

/// A list filled from several tasks.
final class LockedList<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Item] = []
    func append(_ item: Item) { lock.withLock { stored.append(item) } }
    var items: [Item] { lock.withLock { stored } }
}
