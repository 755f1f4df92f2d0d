import Foundation
import Testing

@Suite(.serialized) struct CLIPlatformInboxTests {
    /// Pushes a message with `herald sandbox push-inbox --json`; answers its id and send time (epoch ms).
    func push(_ cli: PlatformCLI, user: String, topic: String, title: String, body: String) throws -> (id: String, ms: Int) {
        let o = try cli.ok(["sandbox", "push-inbox", "--user", user, "--topic", topic, "--title", title, "--body", body, "--json"]).object()
        return (try #require(o["messageId"] as? String), try #require(o["sendDateTime"] as? Int))
    }

    @Test func listFiltersByTopicAndTimeLimitsAndCountsThenSeenLowersUnread() throws {
        let cli = try PlatformCLI()
        let a = try push(cli, user: "ana", topic: "news", title: "One", body: "first")
        let b = try push(cli, user: "ana", topic: "promo", title: "Two", body: "second")
        let c = try push(cli, user: "ana", topic: "news", title: "Three", body: "third")
        _ = try push(cli, user: "ivo", topic: "news", title: "Other", body: "not ana's")
        #expect(a.ms <= b.ms && b.ms <= c.ms)

        let all = try cli.ok(["inbox", "list", "--user", "ana", "--json"]).object()
        #expect(all["countTotal"] as? Int == 3)
        #expect(all["countUnread"] as? Int == 3)
        let messages = try #require(all["messages"] as? [[String: Any]])
        #expect(messages.map { $0["messageId"] as? String } == [c.id, b.id, a.id])  // newest first
        let newest = messages[0]
        #expect(Set(newest.keys) == ["messageId", "title", "text", "topic", "seen", "sendDateTime"])
        #expect(newest["title"] as? String == "Three")
        #expect(newest["text"] as? String == "third")
        #expect(newest["topic"] as? String == "news")
        #expect(newest["seen"] as? Bool == false)
        #expect(newest["sendDateTime"] as? Int == c.ms)

        let news = try cli.ok(["inbox", "list", "--user", "ana", "--topic", "news", "--json"]).object()
        #expect((news["messages"] as? [[String: Any]])?.map { $0["messageId"] as? String } == [c.id, a.id])

        let limited = try cli.ok(["inbox", "list", "--user", "ana", "--limit", "2", "--json"]).object()
        #expect((limited["messages"] as? [Any])?.count == 2)
        #expect(limited["countTotal"] as? Int == 3)

        if a.ms < b.ms {
            // --from (epoch ms) is inclusive; --to (ISO 8601) is exclusive.
            let from = try cli.ok(["inbox", "list", "--user", "ana", "--from", String(b.ms), "--json"]).object()
            #expect((from["messages"] as? [[String: Any]])?.map { $0["messageId"] as? String } == [c.id, b.id])
            let iso = ISO8601DateFormatter.withMilliseconds.string(from: Date(timeIntervalSince1970: Double(b.ms) / 1000))
            let to = try cli.ok(["inbox", "list", "--user", "ana", "--to", iso, "--json"]).object()
            #expect((to["messages"] as? [[String: Any]])?.map { $0["messageId"] as? String } == [a.id])
        }

        let seen = try cli.ok(["inbox", "seen", "--user", "ana", c.id, a.id])
        #expect(seen.stdout.contains("2 marked seen"))
        let after = try cli.ok(["inbox", "list", "--user", "ana", "--json"]).object()
        #expect(after["countUnread"] as? Int == 1)
        #expect((after["messages"] as? [[String: Any]])?.filter { $0["seen"] as? Bool == true }.count == 2)
        let again = try cli.ok(["inbox", "seen", "--user", "ana", c.id])
        #expect(again.stdout.contains("already seen"))

        // Another user's inbox is untouched; user ids are case-sensitive.
        #expect(try cli.ok(["inbox", "list", "--user", "ivo", "--json"]).object()["countUnread"] as? Int == 1)
        #expect(try cli.ok(["inbox", "list", "--user", "Ana", "--json"]).object()["countTotal"] as? Int == 0)

        let human = try cli.ok(["inbox", "list", "--user", "ana"])
        #expect(human.stdout.contains("3 messages, 1 unread"))
        #expect(human.stdout.contains("Two"))
    }
}
