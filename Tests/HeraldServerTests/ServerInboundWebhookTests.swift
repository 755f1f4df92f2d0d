import Foundation
import HeraldAPI
import HeraldEngine
import HeraldTestKit
import Testing

/// The inbound webhook of a server whose carrier pushes no replies (the simulated one): its path is answered as one that
/// does not exist, even with the deployment's token, and nothing is kept. (A server on Infobip: ServeRepliesReplicaTests.)
@Suite struct ServerInboundWebhookTests {
    @Test func aServerWhoseCarrierPushesNoRepliesAnswersTheInboundPathAsMissing() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let token = try await s.engine.carrierReportToken()
        let body = Data(#"{"results": [{"messageId": "m-1", "from": "385911234567", "text": "yes"}]}"#.utf8)
        for path in ["/1/carriers/infobip/inbound/\(token)", "/1/carriers/infobip/inbound/not-the-token"] {
            let answer = try await s.raw(.post, path, body: body)
            #expect(answer.status == 404, "\(path): \(answer.status)")
        }
        let list = try await s.engine.conversations(applicationKey: s.applicationKey)
        #expect(list.conversations.isEmpty)
        #expect(try await s.engine.carrierInboundURL(under: URL(string: "https://invite.example.com/")!).absoluteString
                == "https://invite.example.com/1/carriers/infobip/inbound/\(token)")
    }
}
