import Foundation
import HeraldTestKit
import HeraldAPI
import HeraldCore
import HeraldEngine
@testable import HeraldServices
import Testing
@testable import HeraldViewModels
import HeraldEmbedded

@Suite struct InboxViewModelTests {
    /// A workspace whose user "ana" has `count` messages, one a minute, the newest unread first.
    func workspace(messages count: Int, seenFrom: Int = 3, topics: [String] = ["promo", "news"]) async throws -> WorkspaceHarness {
        let ws = try await WorkspaceHarness.screens()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for i in 0..<count {
            try await ws.workspace.engine.pushInbox(user: "ana", topic: topics[i % topics.count], title: "Message \(i)",
                                                    body: "Body \(i)", at: start.addingTimeInterval(Double(count - i) * 60),
                                                    seen: i >= seenFrom)
        }
        return ws
    }

    /// Ana's inbox view-model with its first page read, and the pump its effects go through.
    func loaded(_ ws: WorkspaceHarness) async -> (InboxViewModel, EffectPump) {
        let pump = EffectPump()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(), user: "ana")
        vm.reload()
        await pump.settle()
        return (vm, pump)
    }

    @Test func loadsTheFirstPageWithCountsAndMarksUnread() async throws {
        let ws = try await workspace(messages: 8)
        let (vm, _) = await loaded(ws)
        #expect(vm.messages.count == 8)
        #expect(vm.counts.total == 8)
        #expect(vm.counts.unread == 3)
        #expect(vm.messages.prefix(3).allSatisfy { !$0.seen })
        #expect(vm.countsSummary == "8 messages, 3 unread")
        #expect(vm.topics == ["news", "promo"])
        #expect(vm.problem == nil)
    }

    @Test func aMessagePushedMeanwhileAppearsOnTopOnRefreshWithTheCursorAndOpenMessageKept() async throws {
        let ws = try await workspace(messages: 5)
        let (vm, pump) = await loaded(ws)
        vm.moveCursor(to: 2)
        let under = vm.messages[2].messageId
        vm.openCurrent()
        await pump.settle()
        // Another process (here: the platform directly) pushes a message for ana.
        try await ws.workspace.engine.pushInbox(user: "ana", topic: "news", title: "Fresh", body: "Just arrived",
                                                at: Date(timeIntervalSince1970: 1_700_001_000), seen: false)
        vm.refresh()
        #expect(vm.isRefreshing && !vm.isLoading)         // quiet: nothing on screen says loading
        await pump.settle()
        #expect(vm.messages.first?.title == "Fresh")
        #expect(vm.messages.count == 6)
        #expect(vm.messages[vm.cursor].messageId == under)
        #expect(vm.opened?.messageId == under)
        #expect(vm.counts.total == 6)
    }

    /// A server tells of a new message on its event stream: the inbox reads its first page then, not on a timer
    /// (Infobip's inbox and a server's are read every 30 s otherwise, the embedded engine's local file every second).
    @Test func aNewMessageTheServerToldOfIsReadAtOnceAndOtherUsersAreNotRead() async throws {
        let ws = try await workspace(messages: 3)
        let (vm, pump) = await loaded(ws)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Told", body: "by the event stream",
                                                at: Date(timeIntervalSince1970: 1_700_001_000), seen: false)
        #expect(!vm.handle(.inboxArrived(externalUserId: "ivo")))
        #expect(!vm.isRefreshing, "another user's message reads nothing")
        _ = vm.handle(.inboxArrived(externalUserId: "ana"))
        #expect(vm.isRefreshing)
        await pump.settle()
        #expect(vm.messages.first?.title == "Told" && vm.refreshProblem == nil)
        // A message told of while a read runs is read right after it, not at the next 30-second turn.
        vm.refresh()
        try await Task.sleep(nanoseconds: 300_000_000)      // its read is done; its answer waits for the UI side
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Second", body: "told mid-read",
                                                at: Date(timeIntervalSince1970: 1_700_002_000), seen: false)
        _ = vm.handle(.inboxArrived(externalUserId: "ana"))
        await pump.settle()
        #expect(vm.messages.first?.title == "Second")
        // A refresh the local copy answered (the platform busy) is shown as offline; one that fails outright keeps
        // what is shown and says why until one succeeds.
        await ws.workspace.engine.injectFaults(.serverError(status: 503), count: 20, pathPrefix: "/mobile/1/user")
        vm.refresh()
        await pump.settle()
        #expect(vm.fromCache && vm.refreshProblem == nil)
        try ws.workspace.database.write { try $0.execute(sql: "DROP TABLE inbox_message") }
        vm.refresh()
        await pump.settle()
        #expect(vm.messages.first?.title == "Second", "what is shown stays")
        #expect(vm.refreshProblem?.hasPrefix("could not refresh: ") == true, "\(vm.refreshProblem ?? "nil")")
        #expect(PlatformKind.embedded.inboxRefreshInterval == 1)
        #expect(PlatformKind.infobip(URL(string: "https://x.api.infobip.com")!).inboxRefreshInterval == 30)
        #expect(PlatformKind.server(URL(string: "https://herald.example")!).inboxRefreshInterval == 30)
    }

    @Test func openingAMessageDropsTheUnreadCountAtOnceAndTheMarkSticks() async throws {
        let ws = try await workspace(messages: 5)
        let pump = EffectPump()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(), user: "ana")
        vm.reload()
        await pump.settle()
        vm.openCurrent()
        // Optimistic: before the platform answered.
        #expect(vm.counts.unread == 2)
        #expect(vm.opened?.messageId == vm.messages[0].messageId)
        #expect(vm.messages[0].seen)
        await pump.settle()
        // The service's own event for the same mark must not count twice.
        vm.handle(.inboxSeenChanged(InboxSeenChange(externalUserId: "ana", messageIds: [vm.messages[0].messageId], seen: true)))
        #expect(vm.counts.unread == 2)
        #expect(vm.context.app.unreadInbox == 2)       // what the status bar was told last
        // A fresh load agrees: the platform kept the mark.
        vm.reload()
        await pump.settle()
        #expect(vm.counts.unread == 2)
        #expect(vm.messages[0].seen)
    }

    @Test func aTerminalThatChangesNothingLeavesAnOpenedMessageUnread() async throws {
        let ws = try await workspace(messages: 5)
        let pump = EffectPump()
        // A second Herald on the same folder, started read-only (a support desk's terminal).
        var config = WorkspaceHarness.config()
        config.readOnlyReason = "read-only mode: this terminal changes nothing"
        let desk = try await ws.reopen(config: config)
        defer { desk.close() }
        #expect(desk.inbox.readOnlyReason != nil)
        let vm = InboxViewModel(service: desk.inbox, context: pump.context(), user: "ana")
        vm.reload()
        await pump.settle()
        #expect(vm.counts.unread == 3)
        vm.openCurrent()
        await pump.settle()
        #expect(vm.opened?.messageId == vm.messages[0].messageId)
        #expect(!vm.messages[0].seen && vm.counts.unread == 3)
        // The platform kept it unread too.
        vm.reload()
        await pump.settle()
        #expect(vm.counts.unread == 3 && !vm.messages[0].seen)
    }

    @Test func markUnreadKeepsAReadMessageUnreadHereAcrossReloadsUntilOpenedAgain() async throws {
        let ws = try await workspace(messages: 5)                 // messages 3 and 4 are seen on the platform
        let (vm, pump) = await loaded(ws)
        #expect(vm.counts.unread == 3)
        vm.moveCursor(to: 3)
        let id = vm.messages[3].messageId
        vm.openCurrent()
        vm.markCurrentUnread()
        #expect(vm.opened == nil)                                 // the reader closes, as in a mail reader
        #expect(!vm.messages[3].seen && vm.counts.unread == 4)    // at once
        await pump.settle()
        // The platform still has it seen; a fresh load (and a new process on the same data) shows it unread.
        vm.reload()
        await pump.settle()
        #expect(vm.messages.first { $0.messageId == id }?.seen == false)
        #expect(vm.counts.unread == 4)
        #expect(vm.countsSummary == "5 messages, 4 unread")
        let again = InboxViewModel(service: ws.workspace.inbox, context: pump.context(), user: "ana")
        again.reload()
        await pump.settle()
        #expect(again.counts.unread == 4)
        // Opened again, it is read again, here and after a reload.
        vm.moveCursor(to: 3)
        vm.openCurrent()
        await pump.settle()
        vm.reload()
        await pump.settle()
        #expect(vm.messages.first { $0.messageId == id }?.seen == true)
        #expect(vm.counts.unread == 3)
    }

    @Test func aMarkThePlatformCannotTakeNowStaysMarkedAndQueuedWithAWarning() async throws {
        let ws = try await workspace(messages: 4)
        let pump = EffectPump()
        let toasts = ToastLog()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(toasts: toasts.board), user: "ana")
        vm.reload()
        await pump.settle()
        await ws.workspace.engine.injectFaults(.serverError(status: 500), count: 1, pathPrefix: "/mobile/2/messages/seen")
        vm.markCurrentSeen()
        #expect(vm.counts.unread == 2)
        await pump.settle()
        #expect(vm.counts.unread == 2)
        #expect(vm.messages[0].seen)
        #expect(toasts.entries.last?.level == .warning)
        #expect(toasts.texts.last?.contains("1 seen mark ") == true)
        #expect(toasts.texts.last?.contains("queued") == true)
        #expect(await ws.workspace.inbox.pendingSeenCount(user: "ana") == 1)
    }

    @Test func olderMessagesLoadAsTheCursorNearsTheEnd() async throws {
        let ws = try await workspace(messages: 45)
        let (vm, pump) = await loaded(ws)
        #expect(vm.messages.count == 20)
        #expect(vm.hasMore)
        vm.moveCursor(to: 10)
        #expect(vm.queueIdle(pump))                     // far from the end: nothing asked
        vm.moveCursor(to: 16)
        await pump.settle()
        #expect(vm.messages.count == 40)
        vm.moveCursor(to: 39)
        await pump.settle()
        #expect(vm.messages.count == 45)
        #expect(Set(vm.messages.map(\.messageId)).count == 45)
        #expect(vm.messages.map(\.title) == (0..<45).map { "Message \($0)" })
        #expect(vm.cursor == 39)
    }

    @Test func topicCyclesThroughTheTopicsSeenAndCountsAreFiltered() async throws {
        let ws = try await workspace(messages: 6)
        let (vm, pump) = await loaded(ws)
        vm.cycleTopic()
        await pump.settle()
        #expect(vm.filter.topic == "news")
        #expect(vm.messages.allSatisfy { $0.topic == "news" })
        #expect(vm.messages.count == 3)
        #expect(vm.counts.totalFiltered == 3)
        #expect(vm.countsSummary.contains("filter: 3 shown"))
        vm.cycleTopic()
        await pump.settle()
        #expect(vm.filter.topic == "promo")
        vm.cycleTopic()
        await pump.settle()
        #expect(vm.filter.topic == nil)
        #expect(vm.messages.count == 6)
    }

    @Test func dateRangeAcceptsISODatesAndRefusesNonsense() async throws {
        let ws = try await workspace(messages: 4)
        let pump = EffectPump()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(), user: "ana",
                                dates: InboxDateParser(timeZone: TimeZone(identifier: "UTC")!))
        vm.reload()
        await pump.settle()
        #expect(vm.setDateRange(from: "2023-13-01", to: "")?.contains("is not a date") == true)
        #expect(vm.filter.from == nil)
        #expect(vm.setDateRange(from: "2023-11-16", to: "2023-11-15")?.contains("range is empty") == true)
        // Messages 3…0 were sent at 22:14:20, 22:15:20, 22:16:20, 22:17:20 (UTC): "to" is exclusive.
        #expect(vm.setDateRange(from: "", to: "2023-11-14T22:16:00Z") == nil)
        await pump.settle()
        #expect(vm.messages.map(\.title) == ["Message 2", "Message 3"])
        #expect(vm.setDateRange(from: "2023-11-14", to: "2023-11-14") == nil)
        await pump.settle()
        #expect(vm.messages.count == 4)
        #expect(vm.fromText == "2023-11-14")
        #expect(vm.toText == "2023-11-14")
    }

    @Test func anApplicationThatRequiresJWTExplainsWhatToSet() async throws {
        let ws = try await workspace(messages: 2)
        try await ws.workspace.engine.setInboxAuthMode(.jwt, applicationKey: ws.workspace.credentials.applicationKey)
        let pump = EffectPump()
        let toasts = ToastLog()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(toasts: toasts.board), user: "ana")
        vm.reload()
        await pump.settle()
        #expect(vm.messages.isEmpty)
        #expect(vm.problem?.hasPrefix("this application requires JWT: set inbox.jwt_key_id and inbox.jwt_secret") == true)
        #expect(toasts.entries.last?.level == .error)
    }

    @Test func aRefusedTokenNamesTheKeysToCheck() async throws {
        let secret = String(repeating: "ab", count: 32)
        let ws = try await WorkspaceHarness.screens(config: WorkspaceConfig(region: "HR", inboxJWTKeyId: "wrong-key", inboxJWTSecretHex: secret))
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: nil, body: "hi")
        try await ws.workspace.engine.setInboxAuthMode(.jwt, applicationKey: ws.workspace.credentials.applicationKey)
        let (vm, _) = await loaded(ws)
        #expect(vm.problem == "the inbox refused the token: check inbox.jwt_key_id / inbox.jwt_secret")
    }

    @Test func anEmptyUserAsksForOne() async throws {
        let ws = try await workspace(messages: 1)
        let pump = EffectPump()
        let vm = InboxViewModel(service: ws.workspace.inbox, context: pump.context(), user: " ")
        vm.reload()
        #expect(vm.problem?.contains(":user ID") == true)
        vm.setUser("ana")
        await pump.settle()
        #expect(vm.messages.count == 1)
        #expect(vm.problem == nil)
    }
}

extension InboxViewModel {
    /// True when no effect is waiting (nothing was asked of the service).
    func queueIdle(_ pump: EffectPump) -> Bool { pump.queue.inFlight == 0 }
}
