import Foundation
import HeraldAPI
import HeraldEngine
import HeraldServer
import HeraldTestKit
import Testing

/// Conversations on a real server: any key reads them, a sender key marks them seen and a viewer key is refused; on
/// a server that masks numbers for viewers, a viewer reads the list, the thread and the reply events of the stream
/// masked while a sender reads them whole.
@Suite struct ServerConversationTests {
    static let ana = "385981200000"

    func text(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// A server whose sender invited two numbers, the first of which replied (mentioning another number).
    func serverWithAReply(masking: Bool) async throws -> ServerHarness {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maskNumbersForViewers = masking
        let s = try await ServerHarness(options: options)
        _ = try await s.invite(2, key: s.sender)
        let kept = try await s.engine.storeReplies(
            [CarrierReply(messageId: "in-1", from: Self.ana, to: "385911000000", text: "call me on +385 98 765 4321", receivedAt: nil)],
            applicationKey: s.applicationKey)
        #expect(kept.count == 1)
        return s
    }

    /// The event stream replayed from its start, read until the reply's event has come.
    func streamReplay(_ s: ServerHarness, key: String) async throws -> String {
        let c = try RawConnection(port: s.port)
        defer { c.close() }
        _ = c.send("GET /1/events HTTP/1.1\r\nHost: x\r\nAuthorization: App \(key)\r\nLast-Event-ID: 0\r\n\r\n")
        let read = await c.read(timeout: 5) { String(decoding: $0, as: UTF8.self).contains(PlatformEvent.replyReceivedType) }
        return String(decoding: read.data, as: UTF8.self)
    }

    @Test func aViewerReadsConversationsMaskedAndCannotMarkThemSeen() async throws {
        let s = try await serverWithAReply(masking: true)
        defer { s.stop() }
        let list = try await s.raw(.get, "/1/social-invite/conversations", key: s.viewer)
        let thread = try await s.raw(.get, "/1/social-invite/conversations/\(Self.ana)", key: s.viewer)
        let stream = try await streamReplay(s, key: s.viewer)
        #expect(list.isSuccess && thread.isSuccess, "\(text(list)) \(text(thread))")
        #expect(stream.contains(PlatformEvent.replyReceivedType), "no reply on the viewer's stream: \(stream.prefix(300))")
        for (what, answer) in [("list", text(list)), ("thread", text(thread)), ("stream", stream)] {
            #expect(!answer.contains(Self.ana) && !answer.contains("765 4321"), "the viewer's \(what) shows a number: \(answer.prefix(400))")
            #expect(answer.contains("•••"), "the viewer's \(what) shows no masked number: \(answer.prefix(400))")
        }
        let read = try await s.call(ListConversations(secret: s.viewer))
        #expect(read.unreadTotal == 1 && read.conversations.first?.replies == 1 && read.conversations.first?.sent == 1)

        // Marking seen is a change: a viewer is refused and nothing changes; a sender marks.
        let refused = try await s.raw(.post, "/1/social-invite/conversations/\(Self.ana)/seen", key: s.viewer, body: Data("{}".utf8))
        #expect(refused.status == 403 && text(refused).contains("viewer key"), "\(refused.status) \(text(refused))")
        #expect(try await s.call(ListConversations(secret: s.sender)).unreadTotal == 1)
        let marked = try await s.call(MarkConversationSeen(secret: s.sender, number: "+" + Self.ana))
        #expect(marked == MarkSeenResult(marked: 1, unread: 0, unreadTotal: 0))

        // A sender reads everything whole.
        let whole = try await s.call(GetConversation(secret: s.sender, number: Self.ana))
        #expect(whole.number == Self.ana && whole.entries.map(\.kind) == [.sent, .reply] && whole.entries.last?.seen == true)
        #expect(try await streamReplay(s, key: s.sender).contains(Self.ana))
    }

    @Test func aServerThatDoesNotMaskShowsViewersTheNumbers() async throws {
        let s = try await serverWithAReply(masking: false)
        defer { s.stop() }
        let thread = try await s.call(GetConversation(secret: s.viewer, number: Self.ana))
        #expect(thread.number == Self.ana && thread.entries.last?.text == "call me on +385 98 765 4321")
        let bad = try await s.raw(.get, "/1/social-invite/conversations", key: s.viewer, query: ["limit": "5000"])
        #expect(bad.status == 400 && text(bad).contains("limit"), "\(text(bad))")
    }
}
