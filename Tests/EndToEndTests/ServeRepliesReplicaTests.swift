import Foundation
import HeraldTestKit
import Testing

/// Two `herald serve` replicas on one PostgreSQL database with Infobip (the `infobip-stand-in` process) as carrier.
/// People's answers reach the team both ways Infobip offers: the leader pulls `GET /sms/1/inbox/reports`, and Infobip
/// pushes each received SMS to the inbound webhook of both replicas, twice. Each answer is kept once, and a viewer's
/// terminal on the other replica sees it within a second of its arrival.
@Suite(.serialized) struct ServeRepliesReplicaTests {
    /// curl, with the body from a file (a body too big for an argument).
    static func post(_ url: String, file: URL) throws -> Int {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "30", "-X", "POST",
                          "-H", "Content-Type: application/json", "--data-binary", "@\(file.path)", url]
        let out = Pipe()
        curl.standardOutput = out
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        return Int(text) ?? 0
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// The replies of `number`'s thread as a replica answers it to `key`: their messageIds and texts.
    static func replies(of number: String, at url: String, key: String) throws -> [(id: String, text: String)] {
        let answer = try ServeReplicaTests.curl(url + "/1/social-invite/conversations/\(number)", key: key)
        #expect(answer.status == 200, "\(answer)")
        let entries = try json(answer.body)["entries"] as? [[String: Any]] ?? []
        return entries.filter { $0["kind"] as? String == "reply" }.map { ($0["messageId"] as? String ?? "", $0["text"] as? String ?? "") }
    }

    @Test func anAnswerPulledAndPushedTwiceToEachReplicaIsKeptOnceAndSeenOnTheOtherWithinASecond() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let database = ["--database", cluster.url]
        let admin = try PlatformCLI()
        let sentLog = admin.home.appendingPathComponent("stand-in-sent.log")
        let standIn = try InfobipEndToEndTests.StandIn(next: admin.binary, arguments: ["--sent-log", sentLog.path])
        defer { _ = try? standIn.process.interrupt() }
        func log() -> [String] { ((try? String(contentsOf: sentLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        func control(_ path: String, _ body: [String: Any]) throws -> [String: Any] {
            let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let answer = try ServeReplicaTests.curl(standIn.url + path, post: text)
            #expect((200..<300).contains(answer.status), "\(path): \(answer)")
            return answer.body.isEmpty ? [:] : try Self.json(answer.body)
        }
        let carrier = ["HERALD_INFOBIP_BASE_URL": standIn.url, "HERALD_INFOBIP_API_KEY": "stand-in-key", "HERALD_INFOBIP_HANDOVER_LEASE": "5"]
        admin.environment = carrier
        let viewerKey = try #require(try admin.ok(["serve", "keys", "create", "--role", "viewer", "--json"] + database).object()["key"] as? String)

        // Marko answered before any replica ran: his message waits in Infobip's queue for the first pull.
        let marko = "385911000051", ana = "385911000052"
        let early = try #require(try control("/stand-in/inbound", ["from": marko, "text": "Who is this?"])["messageId"] as? String)

        let other = try PlatformCLI()
        other.environment = carrier
        let (firstPort, secondPort) = (try PostgresTestCluster.freePort(), try PostgresTestCluster.freePort())
        let (firstURL, secondURL) = ("http://127.0.0.1:\(firstPort)", "http://127.0.0.1:\(secondPort)")
        let serve = ["serve", "--carrier", "infobip", "--download-url", "https://example.com/get-herald"] + database
        let first = try admin.start(serve + ["--listen", "127.0.0.1:\(firstPort)", "--public-url", firstURL])
        defer { _ = try? first.interrupt() }
        let second = try other.start(serve + ["--listen", "127.0.0.1:\(secondPort)", "--public-url", secondURL])
        defer { _ = try? second.interrupt() }
        try first.waitForStderr("listening on \(firstURL)", timeout: 30)
        try second.waitForStderr("listening on \(secondURL)", timeout: 30)
        // Each replica says the address to give Infobip: its own public URL, the deployment's one token.
        let hooks = try [first, second].map { replica in
            try #require(try replica.waitForStderrLine(containing: "Infobip's inbound SMS webhook", timeout: 30).split(separator: " ").last.map(String.init))
        }
        #expect(hooks[0].hasPrefix(firstURL + "/1/carriers/infobip/inbound/") && hooks[1].hasPrefix(secondURL + "/1/carriers/infobip/inbound/"))
        let token = String(hooks[0].split(separator: "/").last ?? "")
        #expect(token.count >= 32 && hooks[1].hasSuffix("/" + token), "\(hooks)")

        // The leader's first carrier pass pulls Marko's message; then Infobip pushes it to both replicas, twice each.
        try ServeReplicaTests.waitFor("the leader to pull Marko's answer", timeout: 30) { log().contains("inbound-taken \(early)") }
        _ = try control("/stand-in/inbound-webhooks", ["urls": hooks, "repeats": 2])
        let again = try control("/stand-in/inbound-again", ["messageIds": [early]])["pushes"] as? [[String: Any]] ?? []
        #expect(again.count == 4 && again.allSatisfy { $0["answer"] as? Int == 204 }, "\(again)")

        // The support desk follows the second replica with a viewer key.
        let desk = try PlatformCLI()
        desk.environment = ["HERALD_PLATFORM_URL": secondURL, "HERALD_PLATFORM_KEY": viewerKey]
        let watch = try desk.start(["watch", "--json"])
        defer { _ = try? watch.interrupt() }
        try watch.waitForStderr("watching deliveries", timeout: 30)

        // Ana answers: Infobip pushes it to the first replica (twice), then to the second (twice).
        let sent = Date()
        let arrival = try control("/stand-in/inbound", ["from": ana, "text": "yes, see you"])
        let id = try #require(arrival["messageId"] as? String)
        let pushes = arrival["pushes"] as? [[String: Any]] ?? []
        #expect(pushes.map { $0["url"] as? String ?? "" } == [hooks[0], hooks[0], hooks[1], hooks[1]])
        #expect(pushes.allSatisfy { $0["answer"] as? Int == 204 }, "a push is answered 2xx only once kept: \(pushes)")
        func replyLines(_ lines: [String]) -> [[String: Any]] {
            lines.compactMap { try? Self.json($0) }.filter { $0["event"] as? String == "reply" }
        }
        try watch.waitForLines(timeout: 10, "the desk to see Ana's answer") { lines in
            replyLines(lines).contains { $0["messageId"] as? String == id }
        }
        let seenAfter = Date().timeIntervalSince(sent)
        print("inbound SMS pushed to replica 1, seen by a viewer's herald watch on replica 2 after \(Int(seenAfter * 1000)) ms (four pushes included)")
        #expect(seenAfter < 1.0, "seen after \(seenAfter) s")

        // The leader's next pull (every 30 s) takes Ana's message too: still one reply.
        try ServeReplicaTests.waitFor("the leader to pull Ana's answer", timeout: 45) { log().contains("inbound-taken \(id)") }
        Thread.sleep(forTimeInterval: 1)
        for url in [firstURL, secondURL] {
            let anas = try Self.replies(of: ana, at: url, key: viewerKey)
            #expect(anas.map(\.id) == [id] && anas.first?.text == "yes, see you", "\(url): \(anas)")
            let markos = try Self.replies(of: marko, at: url, key: viewerKey)
            #expect(markos.map(\.id) == [early] && markos.first?.text == "Who is this?", "\(url): \(markos)")
        }
        let lines = try watch.waitForLines(timeout: 5, "the watch's lines") { _ in true }
        #expect(replyLines(lines).filter { $0["messageId"] as? String == id }.count == 1, "one event for one reply: \(lines)")
        #expect(replyLines(lines).filter { $0["messageId"] as? String == early }.count <= 1, "Marko's message pushed again was not new: \(lines)")

        // The same call reaching both replicas at the same moment (Infobip retrying while the first is under way): both
        // answer 204, one reply is kept, and as it says stop, Ivan is opted out for the whole team.
        let ivan = "385911000053"
        let race = admin.home.appendingPathComponent("race.json")
        try Data(#"{"results": [{"messageId": "race-1", "from": "\#(ivan)", "to": "385991000000", "text": "STOP please", "cleanText": "please", "keyword": "STOP", "receivedAt": "2026-11-28T09:28:39.220+0000", "smsCount": 1, "price": {"pricePerMessage": 0, "currency": "EUR"}, "callbackData": ""}], "messageCount": 1, "pendingMessageCount": 0}"#.utf8).write(to: race)
        let taken = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            if (try? Self.post(hooks[i % 2], file: race)) == 204 { taken.next() }
        }
        #expect(taken.count == 4)
        for url in [firstURL, secondURL] { #expect(try Self.replies(of: ivan, at: url, key: viewerKey).map(\.id) == ["race-1"]) }
        let optOuts = try ServeReplicaTests.curl(firstURL + "/1/social-invite/optouts", key: viewerKey)
        #expect(optOuts.body.contains("+\(ivan)") && !optOuts.body.contains("+\(ana)"), "\(optOuts)")
        // The desk's `herald replies list` on the second replica: three conversations of one reply each, all unread.
        let listed = try desk.ok(["replies", "list", "--json"]).object()
        let rows = listed["conversations"] as? [[String: Any]] ?? []
        #expect(Set(rows.compactMap { $0["number"] as? String }) == Set([marko, ana, ivan].map { "+" + $0 }), "\(listed)")
        #expect(rows.allSatisfy { $0["replies"] as? Int == 1 && $0["unread"] as? Int == 1 } && listed["unreadTotal"] as? Int == 3, "\(listed)")

        // Only this deployment's token opens the webhook; a body that is not Infobip's, or too big, is refused.
        let bad = admin.home.appendingPathComponent("bad.json")
        try Data(#"{"results": {"not": "a list"}}"#.utf8).write(to: bad)
        #expect(try Self.post(secondURL + "/1/carriers/infobip/inbound/not-the-token", file: bad) == 404)
        #expect(try Self.post(hooks[1], file: bad) == 400)
        let big = admin.home.appendingPathComponent("big.json")
        try Data(("{\"results\": [" + String(repeating: " ", count: 1_100_000) + "]}").utf8).write(to: big)
        #expect(try Self.post(hooks[0], file: big) == 413)

        #expect(try watch.interrupt() == 0)
        #expect(try first.interrupt() == 0)
        #expect(try second.interrupt() == 0)
    }
}
