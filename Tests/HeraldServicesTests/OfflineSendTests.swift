import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
import HeraldServices
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
}
