import Foundation
import HeraldAPI
import HeraldCore
import HeraldEmbedded
import HeraldEngine
@testable import HeraldServices
import HeraldTestKit
import Testing

/// A workspace whose key may read but not send (a viewer's on a Herald server): a send is refused before anything is
/// written, so no contact is marked failed, and the reason is the platform's.
@Suite struct ReadOnlyWorkspaceTests {
    /// The embedded engine of an earlier session, reached as a viewer would reach a server.
    struct ViewerConnector: PlatformConnector {
        let engine: PlatformEngine
        func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection {
            guard let kept = try saved.credentials() else { throw WorkspaceError.platform("no credentials kept") }
            return PlatformConnection(kind: .server(URL(string: "http://127.0.0.1:9")!), transport: EmbeddedTransport(engine: engine),
                                      credentials: kept, readOnlyReason: "this is a viewer key (support): it reads and watches, it cannot send")
        }
    }

    @Test func aViewersSendIsRefusedBeforeAnythingIsWritten() async throws {
        let h = try await WorkspaceHarness()
        let zora = try h.person("Zora", numbers: ["091 444 4444"])
        h.workspace.close()
        let engine = try PlatformEngine.open(at: h.dir.url.appendingPathComponent(EmbeddedPlatform.engineFileName))
        let ws = try await Workspace.open(dataDirectory: h.dir.url, platform: ViewerConnector(engine: engine),
                                          config: WorkspaceHarness.config(), clock: h.clock)
        defer { ws.close() }
        do {
            _ = try await ws.invites.invite(person: zora)
            Issue.record("a viewer's send went through")
        } catch let error as InviteError {
            #expect(error == .readOnly("this is a viewer key (support): it reads and watches, it cannot send"))
            #expect(error.userMessage.contains("no contact was marked"))
        }
        #expect(try ws.ledger.bulks().isEmpty)
        #expect(try ws.ledger.queuedInvitations().isEmpty)
        #expect(ws.invites.readOnlyReason != nil)
    }
}
