import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
import HeraldEngine
@testable import HeraldServices
import HeraldTestKit
import Testing

/// A platform that cannot be reached: sends wait queued in the ledger instead of failing, using what the
/// workspace kept from the last time it could ask (the application's settings, its messages).
@Suite struct OfflineSendTests {
    /// Every request fails as an unreachable server does.
    struct Unreachable: PlatformTransport {
        func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
            throw .transport("cannot connect to http://127.0.0.1:9: connection refused")
        }
    }

    /// The same application as last time, over a transport that reaches nothing.
    struct OfflineConnector: PlatformConnector {
        func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
            guard let kept = try saved.credentials() else { throw WorkspaceError.platform("no credentials kept") }
            return PlatformConnection(kind: .server(URL(string: "http://127.0.0.1:9")!), transport: Unreachable(), credentials: kept)
        }
    }

    @Test func aSendWhileThePlatformIsAwayWaitsQueuedWithTheKeptDefaultMessage() async throws {
        let h = try await WorkspaceHarness()
        // A first session reads the settings and the default message while the platform answers.
        _ = try await h.workspace.templates.defaultMessage()
        h.workspace.close()
        let offline = try await Workspace.open(dataDirectory: h.dir.url, platform: OfflineConnector(), config: WorkspaceHarness.config(),
                                               clock: h.clock)
        defer { offline.close() }
        do {
            _ = try await offline.invites.invite(numbers: [WorkspaceHarness.mobile(7)])
            Issue.record("a send reached an unreachable platform")
        } catch InviteError.platformUncertain(_, let queued) {
            #expect(queued == 1)
        }
        let waiting = try offline.ledger.queuedInvitations()
        #expect(waiting.map(\.msisdn) == [WorkspaceHarness.mobile(7)])
        #expect(waiting.allSatisfy { $0.status == .queued })
    }

    @Test func withNothingKeptTheSendSaysThePlatformCannotBeReached() async throws {
        let h = try await WorkspaceHarness()
        h.workspace.close()
        let offline = try await Workspace.open(dataDirectory: h.dir.url, platform: OfflineConnector(), config: WorkspaceHarness.config(),
                                               clock: h.clock)
        defer { offline.close() }
        await #expect(throws: (any Error).self) { _ = try await offline.invites.invite(numbers: [WorkspaceHarness.mobile(8)]) }
        #expect(try offline.ledger.queuedInvitations().isEmpty)
    }

    /// A server that is away, then back: requests fail as unreachable until `up`, then reach `engine`; its event stream
    /// says "connected" when told.
    final class Returning: PlatformConnector, PlatformTransport, PlatformEventSource, @unchecked Sendable {
        let engine: PlatformEngine
        private let lock = NSLock()
        private var isUp = false
        let (links, linkFeed) = AsyncStream<PlatformLinkState>.makeStream()

        init(engine: PlatformEngine) { self.engine = engine }

        func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
            guard let kept = try saved.credentials() else { throw WorkspaceError.platform("no credentials kept") }
            return PlatformConnection(kind: .server(URL(string: "http://127.0.0.1:9")!), transport: self, credentials: kept, events: self)
        }

        func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
            guard lock.withLock({ isUp }) else { throw .transport("cannot connect to http://127.0.0.1:9: connection refused") }
            return await engine.handle(request)
        }

        func follow(after lastEventId: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async {
            for await state in links { await handle(.link(state)) }
        }

        func comeBack() {
            lock.withLock { isUp = true }
            linkFeed.yield(.connected)
        }
    }

    @Test func aSendQueuedWhileTheServerWasAwayIsCompletedWhenItComesBackWithAToast() async throws {
        let h = try await WorkspaceHarness()
        _ = try await h.workspace.templates.defaultMessage()
        h.workspace.close()
        let engine = try PlatformEngine.open(at: h.dir.url.appendingPathComponent(EmbeddedPlatform.engineFileName))
        let server = Returning(engine: engine)
        let ws = try await Workspace.open(dataDirectory: h.dir.url, platform: server, config: WorkspaceHarness.config(), clock: h.clock)
        defer { ws.close() }
        let events = Recorder()
        let subscription = ws.bus.subscribe { events.append($0) }
        let toasts = { events.events.compactMap { event -> String? in if case .toast(_, let text) = event { text } else { nil } } }
        defer { subscription.cancel() }
        try await ws.startFeed()
        await #expect(throws: InviteError.self) { _ = try await ws.invites.invite(numbers: [WorkspaceHarness.mobile(9)]) }
        #expect(try ws.ledger.queuedInvitations().count == 1)
        #expect(await ws.tracker.state().pendingRecipients == 1, "the status bar counts what waits queued as pending")
        server.comeBack()
        let deadline = Date().addingTimeInterval(10)
        while try !ws.ledger.queuedInvitations().isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(try ws.ledger.queuedInvitations().isEmpty, "the running workspace sent what it had queued")
        while toasts().isEmpty, Date() < deadline { try await Task.sleep(nanoseconds: 20_000_000) }
        #expect(toasts().contains { $0.contains("back online: sent 1 invitation") })
    }
}
