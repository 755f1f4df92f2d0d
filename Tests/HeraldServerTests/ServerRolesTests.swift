import Foundation
import HeraldAPI
import HeraldServer
import HeraldTestKit
import Testing

/// What each key may do on a server, and that taking a key back takes back what it had open.
@Suite struct ServerRolesTests {
    func text(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func aViewerCannotMarkSeenNorMakeReferralLinksButReadsThem() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let message = try await s.engine.pushInbox(user: "demo", topic: "news", title: "Hi", body: "Hello", applicationKey: s.applicationKey)
        let seen = Data(#"{"externalUserId": "demo", "messages": [{"messageId": "\#(message.messageId)", "timestampDelta": 0, "inbox": true}]}"#.utf8)
        let refused = try await s.raw(.post, "/mobile/2/messages/seen", key: s.viewer, body: seen)
        #expect(refused.status == 403)
        #expect(text(refused).contains("sender key"))
        let marked = try await s.raw(.post, "/mobile/2/messages/seen", key: s.sender, body: seen)
        #expect(marked.isSuccess)
        let referral = "/herald/1/application/\(s.applicationKey)/referral"
        let make = try await s.raw(.get, referral, key: s.viewer, query: ["referrer": "zoe"])
        #expect(make.status == 403)
        #expect(try await s.engine.existingReferralLink(applicationKey: s.applicationKey, referrer: "zoe") == nil)
        #expect(try await s.raw(.get, referral, key: s.sender, query: ["referrer": "zoe"]).status == 200)
        let read = try await s.raw(.get, referral, key: s.viewer, query: ["referrer": "zoe"])
        #expect(read.status == 200)
        #expect(text(read).contains("zoe"))
    }

    @Test func theBareApplicationCodeOpensAnInboxOnlyWhenTheOperatorAllowedIt() async throws {
        let strict = try await ServerHarness()
        defer { strict.stop() }
        let code = try #require(try await strict.engine.credentials(applicationKey: strict.applicationKey)).applicationCode
        let inbox = "/mobile/1/user/demo/inbox/apns/messages"
        let refused = try await strict.raw(.get, inbox, key: code)
        #expect(refused.status == 403)
        #expect(text(refused).contains("--inbox-auth app-code"))
        #expect(try await strict.raw(.get, inbox, key: strict.viewer).status == 200)
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.inboxAuth = .appCode
        let open = try await ServerHarness(options: options)
        defer { open.stop() }
        let openCode = try #require(try await open.engine.credentials(applicationKey: open.applicationKey)).applicationCode
        #expect(try await open.raw(.get, inbox, key: openCode).status == 200)
    }

    /// Opens `/1/events` with `key` on a raw connection and reads its first frame.
    func openStream(_ s: ServerHarness, key: String) async throws -> RawConnection {
        let c = try RawConnection(port: s.port)
        c.send("GET /1/events HTTP/1.1\r\nHost: x\r\nAuthorization: App \(key)\r\n\r\n")
        let first = await c.read(timeout: 5) { String(decoding: $0, as: UTF8.self).contains("event: ready") }
        #expect(String(decoding: first.data, as: UTF8.self).contains("event: ready"))
        return c
    }

    func subscribers(_ s: ServerHarness) async throws -> Int? {
        let metrics = text(try await s.raw(.get, "/metrics"))
        return metrics.split(separator: "\n").first { $0.hasPrefix("herald_sse_subscribers ") }.flatMap { Int($0.split(separator: " ")[1]) }
    }

    @Test func revokingAKeyEndsItsOpenEventStreamWithinTwoSeconds() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let stream = try await openStream(s, key: s.viewer)
        _ = try await s.engine.revokeServerKey("support")
        let started = Date()
        let end = await stream.read(timeout: 4)
        #expect(end.closed, "the stream of a revoked key is still open after 4 s")
        #expect(Date().timeIntervalSince(started) < 2.5)
        #expect(try await s.raw(.get, "/1/events", key: s.viewer).status == 401)
    }

    @Test func aSubscriberThatDisconnectsIsReleasedWithinASecond() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        var streams: [RawConnection] = []
        for _ in 0..<3 { streams.append(try await openStream(s, key: s.viewer)) }
        #expect(try await subscribers(s) == 3)
        streams.forEach { $0.close() }
        let started = Date()
        var left = 3
        while Date().timeIntervalSince(started) < 3, left > 0 {
            try await Task.sleep(nanoseconds: 50_000_000)
            left = try await subscribers(s) ?? -1
        }
        #expect(left == 0)
        #expect(Date().timeIntervalSince(started) < 1)
    }
}
