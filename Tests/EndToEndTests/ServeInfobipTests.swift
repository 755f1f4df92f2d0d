import Foundation
import HeraldTestKit
import Testing

/// `herald serve --carrier infobip`: a team's terminals send real SMS through the server, which alone talks to Infobip
/// (the `infobip-stand-in` process on a loopback port). The stand-in carries out the first send request and loses
/// its answer; the server never posts its messages again, so each destination reaches Infobip exactly once. Infobip
/// pushes every delivery report to the server's webhook (twice, as it may), and a viewer's terminal, which has no
/// Infobip key, sees every final status with Infobip's price.
@Suite(.serialized) struct ServeInfobipTests {
    @Test func aTeamSendsThroughInfobipOnceEvenWhenAnAnswerIsLost() throws {
        let server = try PlatformCLI()
        let sentLog = server.home.appendingPathComponent("stand-in-sent.log")
        let standIn = try InfobipEndToEndTests.StandIn(next: server.binary, arguments: [
            "--sent-log", sentLog.path, "--lose-send-answers", "1", "--webhook-repeats", "2"])
        defer { _ = try? standIn.process.interrupt() }
        let standInURL = standIn.url

        let senderKey = try #require(try server.ok(["serve", "keys", "create", "--role", "sender", "--json"]).object()["key"] as? String)
        let viewerKey = try #require(try server.ok(["serve", "keys", "create", "--role", "viewer", "--json"]).object()["key"] as? String)
        // No public URL and no [infobip] link: the invitations would have nothing real to link to.
        server.environment = ["HERALD_INFOBIP_BASE_URL": standInURL, "HERALD_INFOBIP_API_KEY": "stand-in-key",
                              "HERALD_INFOBIP_HANDOVER_LEASE": "5"]
        let noLink = try server.run(["serve", "--listen", "127.0.0.1:0", "--carrier", "infobip"])
        #expect(noLink.status == 1)
        #expect(noLink.stderr.contains("--public-url"), "\(noLink)")

        let port = try PostgresTestCluster.freePort()
        let url = "http://127.0.0.1:\(port)"
        let serving = try server.start(["serve", "--listen", "127.0.0.1:\(port)", "--carrier", "infobip", "--public-url", url,
                                                  "--download-url", "https://example.com/get-herald"])
        defer { _ = try? serving.interrupt() }
        try serving.waitForStderr("listening on \(url)", timeout: 30)
        // The server says what Infobip thinks of the key.
        try serving.waitForStderr("SMS sending \(standInURL)", timeout: 30)

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": viewerKey]
        let first = try #require(try ana.ok(["send", "--to", mobile(31), mobile(32), "--json"]).object()["bulkId"] as? String)
        let second = try #require(try ana.ok(["send", "--to", mobile(33), "--json"]).object()["bulkId"] as? String)

        for bulk in [first, second] {
            let status = try support.ok(["status", bulk, "--wait", "--json"], timeout: 90).object()
            let infos = status["deliveryInfo"] as? [[String: Any]] ?? []
            #expect(infos.count == (bulk == first ? 2 : 1))
            #expect(infos.allSatisfy { $0["deliveryStatus"] as? String == "DeliveredToTerminal" }, "\(infos)")
            #expect(infos.allSatisfy { $0["price"] as? Double == 0.0075 && $0["currency"] as? String == "EUR" }, "\(infos)")
        }
        let log = try String(contentsOf: sentLog, encoding: .utf8).split(separator: "\n")
        let logged = log.filter { !$0.hasPrefix("webhook ") }
        #expect(logged.firstIndex(of: "answer-lost /sms/3/messages") == 2, "the first send request (two destinations) was carried out and its answer lost: \(logged)")
        let lines = logged.filter { !$0.hasPrefix("answer-lost") }
        let destinations = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(destinations.sorted() == [mobile(31), mobile(32), mobile(33)].map { String($0.dropFirst()) }.sorted(),
                "each destination reached Infobip once: \(lines)")
        // The text people got links to this server's short links, not to a made-up host.
        #expect(lines.allSatisfy { $0.contains("\(url)/r/") }, "\(lines)")
        // Every report was pushed twice and taken each time; the second changed nothing.
        let pushed = log.filter { $0.hasPrefix("webhook ") }
        #expect(pushed.count == 6 && pushed.allSatisfy { $0.hasPrefix("webhook 204 ") }, "\(pushed)")
        let metrics = try ServeReplicaTests.curl(url + "/metrics").body
        let changed = metrics.split(separator: "\n").first { $0.hasPrefix("herald_carrier_pushed_changes_total ") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((1...3).contains(changed ?? -1), "a report pushed twice counts once: \(changed ?? -1)")
        // Only this deployment's token opens the webhook.
        #expect(try ServeReplicaTests.curl(url + "/1/carriers/infobip/reports/not-the-token", post: #"{"results":[]}"#).status == 404)
        #expect(try support.ok(["status", first]).stdout.contains("0.0075 EUR"))
        #expect(try serving.interrupt() == 0)
    }
    /// Two replicas on PostgreSQL with Infobip as their carrier: the leader is killed with SIGKILL while Infobip holds
    /// its send request (carried out, not yet answered). The other replica takes the carrier over, looks the claimed
    /// messages up instead of posting them again, and the viewer sees every final status with Infobip's price.
    @Test func aTakeoverAfterTheLeadersSIGKILLMidSendPostsNothingTwice() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let database = ["--database", cluster.url]
        let admin = try PlatformCLI()
        let sentLog = admin.home.appendingPathComponent("stand-in-sent.log")
        let standIn = try InfobipEndToEndTests.StandIn(next: admin.binary, arguments: ["--sent-log", sentLog.path, "--delay-send-answers", "4"])
        defer { _ = try? standIn.process.interrupt() }
        let standInURL = standIn.url
        let carrier = ["HERALD_INFOBIP_BASE_URL": standInURL, "HERALD_INFOBIP_API_KEY": "stand-in-key", "HERALD_INFOBIP_HANDOVER_LEASE": "5"]
        admin.environment = carrier
        let senderKey = try #require(try admin.ok(["serve", "keys", "create", "--role", "sender", "--json"] + database).object()["key"] as? String)
        let viewerKey = try #require(try admin.ok(["serve", "keys", "create", "--role", "viewer", "--json"] + database).object()["key"] as? String)
        let other = try PlatformCLI()
        other.environment = carrier
        // Infobip reaches the team at the replica that survives (in production: the load balancer in front of both).
        let secondPort = try PostgresTestCluster.freePort()
        let secondURL = "http://127.0.0.1:\(secondPort)"
        let serve = ["serve", "--carrier", "infobip", "--public-url", secondURL, "--download-url", "https://example.com/get-herald"] + database
        let first = try admin.start(serve + ["--listen", "127.0.0.1:0"])
        let firstURL = try ServeReplicaTests.address(of: first)
        try ServeReplicaTests.waitFor("the first replica to lead") { try ServeReplicaTests.leads(firstURL) }
        let second = try other.start(serve + ["--listen", "127.0.0.1:\(secondPort)"])
        defer { _ = try? second.interrupt() }
        try second.waitForStderr("listening on \(secondURL)", timeout: 30)

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": firstURL, "HERALD_PLATFORM_KEY": senderKey]
        let numbers = (0..<12).map { mobile(400 + $0) }
        let bulk = try #require(try ana.ok(["send", "--to"] + numbers + ["--json"]).object()["bulkId"] as? String)
        // Infobip has carried the leader's request out and holds its answer: the leader dies now.
        try ServeReplicaTests.waitFor("the stand-in to take the leader's send request") {
            ((try? String(contentsOf: sentLog, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("webhook ") }.count == numbers.count
        }
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        try ServeReplicaTests.waitFor("the second replica to take the carrier lease", timeout: 15) { try ServeReplicaTests.leads(secondURL) }

        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": secondURL, "HERALD_PLATFORM_KEY": viewerKey]
        let status = try support.ok(["status", bulk, "--wait", "--json"], timeout: 90).object()
        let infos = status["deliveryInfo"] as? [[String: Any]] ?? []
        #expect(infos.count == numbers.count)
        #expect(infos.allSatisfy { $0["deliveryStatus"] as? String == "DeliveredToTerminal" }, "\(infos)")
        #expect(infos.allSatisfy { $0["price"] as? Double == 0.0075 }, "\(infos)")
        let posted = try String(contentsOf: sentLog, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("webhook ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(posted.sorted() == numbers.map { String($0.dropFirst()) }.sorted(), "each destination posted to Infobip once: \(posted)")
    }
}
