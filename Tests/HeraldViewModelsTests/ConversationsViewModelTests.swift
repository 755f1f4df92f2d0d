import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels

/// The Replies pane's view-model on a real workspace (its store and the embedded engine): replies come in through the
/// sandbox's simulated carrier, as `herald sandbox reply` brings them.
@Suite("Conversations view-model")
struct ConversationsViewModelTests {
    /// A view-model driven on the UI side, its first list read.
    private func make(_ ws: WorkspaceHarness, ui: UISide, effects: EffectPump, toasts: ToastLog? = nil,
                      readOnly: String? = nil) async -> ConversationsViewModel {
        let vm = ui {
            ConversationsViewModel(service: ws.workspace.conversations, book: ws.book, readOnlyReason: readOnly,
                                   context: effects.context(toasts: toasts?.board ?? ToastBoard(clock: ws.clock), clock: ws.clock))
        }
        await effects.settle()
        return vm
    }

    /// A reply from `number` through the sandbox's carrier; returns the event the workspace published for it.
    @discardableResult
    private func reply(_ ws: WorkspaceHarness, from number: String, _ text: String) async throws -> RepliesChange {
        let published = PublishedEvents()
        let subscription = ws.workspace.bus.subscribe { published.add($0) }
        defer { subscription.cancel() }
        let sandbox = try #require(ws.workspace.connection.sandbox)
        _ = try await sandbox.receiveReply(from: number, text: text)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            for case .repliesChanged(let change) in published.all where change.reply?.text == text { return change }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        Issue.record("no repliesChanged event for \"\(text)\"")
        throw CancellationError()
    }

    private let ana = WorkspaceHarness.mobile(1), stranger = WorkspaceHarness.mobile(2)

    /// Ana (in the book) was invited and answered; a number nobody has wrote afterwards.
    private func seeded() async throws -> WorkspaceHarness {
        let ws = try await WorkspaceHarness.screens()
        try await ws.workspace.startFeed()        // the platform's events (replies) reach the bus
        try ws.person("Ana", "Horvat", numbers: [ana])
        _ = try await ws.workspace.invites.invite(numbers: [ana])
        try await reply(ws, from: ana, "Who is this?")
        ws.clock.advance(by: 60)
        try await reply(ws, from: stranger, "wrong number")
        return ws
    }

    @Test func listsConversationsNewestFirstWithUnreadCountsNamesAndUnknownNumbers() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        #expect(vm.rows.map(\.number) == [stranger, ana])
        #expect(vm.rows.map(\.name) == [nil, "Ana Horvat"])
        #expect(vm.rows.map(\.unread) == [1, 1])
        #expect(vm.rows.first?.lastText == "wrong number" && vm.rows.first?.lastIsReply == true)
        #expect(vm.unreadTotal == 2)
        #expect(vm.context.app.unreadReplies == 2, "the status bar counts them from the start")
        #expect(vm.countsLine == "2 conversations · 2 unread replies")
        #expect(vm.unknownNumber == stranger, "a on the unknown number adds it")
        ui { vm.moveCursor(by: 1) }
        #expect(vm.unknownNumber == nil && vm.addNumberProblem == "this number is in the address book already")
        #expect(ui.violations.isEmpty)
    }

    @Test func enterOpensTheThreadThroughAnEffectAndMarksItSeen() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        ui { vm.moveCursor(to: 1); vm.openCurrent() }
        #expect(vm.openNumber == ana && vm.thread == nil, "read by an effect, not on the key")
        #expect(vm.rows[1].unread == 0 && vm.unreadTotal == 1 && vm.context.app.unreadReplies == 1, "counted down at once")
        await effects.settle()
        let thread = try #require(vm.thread)
        #expect(thread.entries.map(\.kind) == [.sent, .reply])
        #expect(thread.entries.last?.text == "Who is this?" && thread.entries.last?.seen == true)
        #expect(thread.unread == 0)
        // The platform has the mark: a fresh list says so.
        let page = try await ws.workspace.conversations.list()
        #expect(page.unreadTotal == 1 && page.rows.first { $0.number == ana }?.unread == 0)
        #expect(ui { vm.closeThread() } && vm.openNumber == nil)
        #expect(ui.violations.isEmpty)
    }

    @Test func aReadOnlyTerminalOpensTheThreadButLeavesTheRepliesUnread() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui), toasts = ToastLog()
        let vm = await make(ws, ui: ui, effects: effects, toasts: toasts, readOnly: "read-only: a viewer key")
        ui { vm.moveCursor(to: 1); vm.openCurrent() }
        await effects.settle()
        #expect(vm.thread?.entries.last?.seen == false && vm.thread?.unread == 1)
        #expect(vm.unreadTotal == 2)
        #expect(try await ws.workspace.conversations.list().unreadTotal == 2)
        ui { vm.beginAnswer() }
        #expect(!vm.isWriting && toasts.texts.last == "read-only: a viewer key")
        #expect(vm.addNumberProblem == "read-only: a viewer key")
    }

    @Test func aReplyShowsAtOnceInTheListTheCountAndTheOpenThread() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        ui { vm.moveCursor(to: 1); vm.openCurrent() }
        await effects.settle()
        #expect(vm.unreadTotal == 1)
        ws.clock.advance(by: 60)
        let change = try await reply(ws, from: ana, "yes, see you there")
        #expect(ui { vm.handle(.repliesChanged(change)) })
        // Folded before anything is read again: Ana's row on top and lit, the count up, the thread longer.
        #expect(vm.rows.first?.number == ana && vm.rows.first?.unread == 1 && vm.rows.first?.lastText == "yes, see you there")
        #expect(vm.isLit(ana, now: ws.clock.now()))
        #expect(vm.unreadTotal == 2 && vm.context.app.unreadReplies == 2)
        #expect(vm.thread?.entries.last?.text == "yes, see you there" && vm.thread?.entries.last?.seen == false)
        await effects.settle()
        // Read again, exact: the new reply stays unread (a reply arriving in an open thread is not marked for the team).
        #expect(vm.thread?.entries.map(\.text).suffix(2) == ["Who is this?", "yes, see you there"])
        #expect(vm.thread?.unread == 1 && vm.unreadTotal == 2)
        ui { vm.markCurrentSeen() }
        await effects.settle()
        #expect(vm.thread?.unread == 0 && vm.unreadTotal == 1)
        #expect(try await ws.workspace.conversations.list().unreadTotal == 1)
        ws.clock.advance(by: 3)
        #expect(ui { vm.tick(now: ws.clock.now()) } && !vm.isLit(ana, now: ws.clock.now()))
        #expect(ui.violations.isEmpty)
    }

    @Test func fShowsOnlyTheConversationsWithUnreadReplies() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        ui { vm.moveCursor(to: 1); vm.openCurrent() }
        await effects.settle()
        ui { _ = vm.closeThread(); vm.cycleFilter() }
        await effects.settle()
        #expect(vm.filter == .unread && vm.rows.map(\.number) == [stranger])
        #expect(vm.countsLine == "1 conversation with unread replies · 1 unread reply")
    }

    @Test func rAnswersThroughTheLedgerAfterTheQuestionAndTheThreadShowsItSent() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui), toasts = ToastLog()
        let vm = await make(ws, ui: ui, effects: effects, toasts: toasts)
        ui { vm.moveCursor(to: 1); vm.openCurrent() }
        await effects.settle()
        ui { vm.beginAnswer() }
        #expect(vm.isWriting && vm.draft?.number == ana && vm.draft?.name == "Ana Horvat")
        ui { vm.requestAnswerConfirmation() }
        #expect(vm.confirmation == nil && toasts.texts.last == "nothing to send: write the answer first")
        ui { vm.setAnswerText("Hi Ana, it's Marko from the club") }
        #expect(vm.meterLine == "GSM-7 · 1 SMS · 32 chars · 128 left")
        ui { vm.requestAnswerConfirmation() }
        let question = try #require(vm.confirmation)
        #expect(question.title == "Answer Ana Horvat (\(ana))?")
        #expect(question.lines.contains("“Hi Ana, it's Marko from the club”"))
        #expect(question.lines.first == "From: " + vm.sender.label)
        ui { vm.confirmAnswer() }
        await effects.settle()
        #expect(vm.confirmation == nil && vm.draft == nil && !vm.isSending)
        #expect(toasts.texts.contains { $0.hasPrefix("answer sent to Ana Horvat (\(ana))") }, "\(toasts.texts)")
        let sent = try #require(vm.thread?.entries.last)
        #expect(sent.kind == .sent && sent.text == "Hi Ana, it's Marko from the club" && sent.status != nil)
        // Through the ledger, as every send: the number's latest row is the answer's, in its own bulk.
        let row = try #require(try ws.workspace.ledger.latestInvitation(msisdn: ana))
        #expect(row.bulkId != nil && row.bulkId == sent.bulkId)
        #expect(ui.violations.isEmpty)
    }

    @Test func anAlphanumericSenderIsWarnedAboutInTheQuestion() async throws {
        var config = WorkspaceConfig(region: "HR")
        config.sender = "Herald"
        let ws = try await WorkspaceHarness.screens(config: config)
        try await ws.workspace.startFeed()
        try ws.person("Ana", "Horvat", numbers: [ana])
        try await reply(ws, from: ana, "hello?")
        let ui = UISide(), effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        #expect(vm.sender.kind == .alphanumeric && vm.sender.warning != nil)
        ui { vm.openCurrent(); vm.beginAnswer(); vm.setAnswerText("hi") }
        ui { vm.requestAnswerConfirmation() }
        let lines = try #require(vm.confirmation?.lines)
        #expect(lines.first == "From: Herald (alphanumeric)")
        #expect(lines.contains { $0.hasPrefix("⚠ the sender \"Herald\" is alphanumeric: people cannot reply to it") })
    }

    @Test func aAddsTheUnknownNumberToTheBookAndTheConversationTakesTheName() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui), toasts = ToastLog()
        let vm = await make(ws, ui: ui, effects: effects, toasts: toasts)
        let number = try #require(vm.unknownNumber)
        let card = vm.newContactCard(for: number)
        #expect(card.contains("Phone: mobile: \(number)"))
        var draft = try ContactDraft.parse(cardText: card)
        draft.firstName = "Marko"
        draft.lastName = "Kovač"
        ui { vm.addContact(draft) }
        await effects.settle()
        #expect(toasts.texts.contains("Added Marko Kovač"))
        #expect(vm.rows.first { $0.number == number }?.name == "Marko Kovač")
        #expect(vm.rows.first { $0.number == number }?.personId != nil)
    }

    @Test func aRecipientsDetailInDeliveriesAndAPersonsInContactsEndWithTheirConversation() async throws {
        let ws = try await seeded()
        let ui = UISide(), effects = EffectPump(ui: ui)
        // Deliveries: the bulk, its recipient in detail, the last messages of Ana's number.
        let deliveries = ui {
            DeliveriesViewModel(book: ws.book, invites: ws.workspace.invites, search: ws.workspace.deliveries,
                                conversations: ws.workspace.conversations, context: effects.context(clock: ws.clock))
        }
        await effects.settle()
        ui { deliveries.open() }
        await effects.settle()
        ui { deliveries.open() }
        #expect(deliveries.detail?.number == ana)
        await effects.settle()
        let excerpt = try #require(deliveries.detailConversation)
        #expect(excerpt.entries.map(\.kind) == [.sent, .reply] && excerpt.unread == 1)
        let lines = excerpt.lines(now: ws.clock.now())
        #expect(lines.last?.hasSuffix("● Who is this?") == true && lines.first?.hasPrefix("→ ") == true, "\(lines)")
        #expect(excerpt.heading == "Conversation (1 unread reply; 6 Replies has it whole)")
        // Another reply of that number: read again while the detail is open.
        let change = try await reply(ws, from: ana, "on my way")
        _ = ui { deliveries.handle(event: .repliesChanged(change)) }
        await effects.settle()
        #expect(deliveries.detailConversation?.entries.last?.text == "on my way")

        // Contacts: Ana's detail ends with the same conversation.
        let contacts = ui { ContactsViewModel(book: ws.book, suggestions: nil, conversations: ws.workspace.conversations,
                                              context: effects.context(clock: ws.clock)) }
        await effects.settle()
        let rows = await ui.rows(contacts, 0..<5, effects)
        let at = try #require(rows.firstIndex { $0.name == "Ana Horvat" })
        ui { contacts.moveCursor(to: at); contacts.openDetail() }
        await effects.settle()
        let shown = contacts.conversationLines
        #expect(shown.dropFirst().first?.hasPrefix("Conversation (") == true, "\(shown)")
        #expect(shown.last?.hasSuffix("on my way") == true, "\(shown)")
        #expect(ui.violations.isEmpty)
    }
}
