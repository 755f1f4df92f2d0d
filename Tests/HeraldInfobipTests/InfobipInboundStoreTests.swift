import Foundation
import HeraldAPI
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Received SMS kept by an engine whose carrier is Infobip: one message pulled from `GET /sms/1/inbox/reports` and
/// pushed to the inbound webhook (twice, as Infobip may) is kept once under Infobip's messageId, with every field
/// Infobip gave; an engine whose carrier pushes nothing refuses a push.
@Suite struct InfobipInboundStoreTests {
    static func engine(_ url: URL, state: StandInState, in dir: TempDir) throws -> PlatformEngine {
        let settings = InfobipSettings(baseURL: url, apiKey: state.apiKey, apiKeySource: "HERALD_INFOBIP_API_KEY", mobileBaseURL: url,
                                       link: "https://example.com/join", reportInterval: 0, attempts: 1, maxRetryWait: 1)
        return try PlatformEngine.open(at: dir.url.appendingPathComponent("engine.sqlite"), config: EngineConfig(),
                                       carrier: InfobipCarrier(settings: settings))
    }

    @Test func aReplyPulledAndPushedTwiceIsKeptOnceWithEveryField() async throws {
        let state = StandInState()
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        let dir = try TempDir("inbound-store")
        let engine = try Self.engine(url, state: state, in: dir)
        let app = try await engine.bootstrapSandbox().applicationKey

        // Ana's answer is pushed first (twice), then pulled; Marko's is pulled first, then pushed.
        let ana = await state.receiveInbound(from: "385911234567", to: "385991000000", text: "yes, see you")
        let marko = await state.receiveInbound(from: "385911234568", text: "STOP")
        let anaBody = await state.inboundWebhookBody([ana])
        #expect(try await engine.storePushedReplies(anaBody) == 1)
        #expect(try await engine.storePushedReplies(anaBody) == 0)
        _ = try await engine.runCarrierPass()
        #expect(await state.inboundWaiting == 0, "the carrier pass pulled both")
        #expect(try await engine.storePushedReplies(await state.inboundWebhookBody([marko])) == 0)

        let thread = try await engine.thread(applicationKey: app, number: "385911234567")
        let replies = thread.entries.filter { $0.kind == .reply }
        #expect(replies.map(\.messageId) == [ana] && replies.first?.text == "yes, see you", "\(thread)")
        #expect(replies.first?.price == 0 && thread.unread == 1)
        let list = try await engine.conversations(applicationKey: app)
        #expect(Set(list.conversations.map(\.number)) == ["385911234567", "385911234568"] && list.unreadTotal == 2, "\(list)")
        #expect(list.conversations.allSatisfy { $0.replies == 1 })
        // Marko said stop: the number is opted out, once.
        let listing = ListOptOuts(secret: try await engine.bootstrapSandbox().secret)
        let out = try listing.decode(await engine.handle(try listing.request()))
        #expect(out.optOuts.map(\.number) == ["+385911234568"], "\(out)")
    }

    @Test func aBodyThatIsNotInfobipsIsRefusedAndNothingKept() async throws {
        let state = StandInState()
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        let dir = try TempDir("inbound-store")
        let engine = try Self.engine(url, state: state, in: dir)
        await #expect(throws: CarrierReportsError.self) { try await engine.storePushedReplies(Data("{\"results\": {}}".utf8)) }
        // Elements Herald cannot keep are skipped; the rest of the body is kept.
        let body = #"{"results": [{"messageId": "m-1", "from": "InfoSMS", "text": "x"}, {"messageId": "m-2", "from": "385911234569", "text": "hi"}]}"#
        #expect(try await engine.storePushedReplies(Data(body.utf8)) == 1)
    }

    /// A terminal on Infobip directly (its engine on this machine): opening the conversations pulls what people sent and
    /// keeps it; a later read gives each once, and the stand-in's queue is empty.
    @Test func aTerminalOnInfobipKeepsTheRepliesItPulls() async throws {
        let h = try await InfobipHarness()
        let ana = await h.state.receiveInbound(from: "385911234567", text: "yes, see you")
        await h.state.receiveInbound(from: "385911234568", text: "STOP")
        let page = try await h.workspace.conversations.list()
        #expect(Set(page.rows.map(\.number)) == ["+385911234567", "+385911234568"] && page.unreadTotal == 2, "\(page)")
        #expect(await h.state.inboundWaiting == 0)
        let thread = try await h.workspace.conversations.thread(number: "+385911234567")
        #expect(thread.entries.map(\.messageId) == [ana] && thread.entries.first?.text == "yes, see you" && thread.unread == 1)
        #expect(try await h.workspace.invites.optOuts().map(\.number) == ["+385911234568"])
        // Kept on this machine: a second read within 30 s has them both without asking Infobip again.
        let pulls = await h.state.requests(to: "/sms/1/inbox/reports").count
        #expect(try await h.workspace.conversations.list().rows.count == 2)
        #expect(await h.state.requests(to: "/sms/1/inbox/reports").count == pulls)
    }

    /// A terminal on Infobip left open reads nothing: its event source pulls Infobip's received SMS by itself, and the
    /// reply reaches the screen as an event.
    @Test func aRunningTerminalOnInfobipLearnsOfAReplyWithoutAnyRead() async throws {
        let state = StandInState()
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        let dir = try TempDir("inbound-store")
        let engine = try Self.engine(url, state: state, in: dir)
        let app = try await engine.bootstrapSandbox().applicationKey
        let id = await state.receiveInbound(from: "385911234567", text: "yes, see you")
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let following = Task {
            await InfobipEventSource(engine: engine, applicationKey: app).follow(after: nil) { update in
                if case .event(.replyReceived(let reply), _) = update { continuation.yield(reply.messageId) }
            }
        }
        defer { following.cancel() }
        let timeout = Task {
            try await Task.sleep(nanoseconds: 10_000_000_000)
            continuation.finish()
        }
        defer { timeout.cancel() }
        var seen: [String] = []
        for await messageId in stream {
            seen.append(messageId)
            break
        }
        #expect(seen == [id])
        #expect(await state.inboundWaiting == 0)
    }

    @Test func anEngineWhoseCarrierPushesNothingRefusesAPush() async throws {
        let dir = try TempDir("inbound-store")
        let engine = try PlatformEngine.open(at: dir.url.appendingPathComponent("engine.sqlite"), config: EngineConfig())
        await #expect(throws: CarrierReportsError.notPushed) {
            try await engine.storePushedReplies(Data(#"{"results": []}"#.utf8))
        }
    }
}
