import Foundation
import HeraldTestKit
import Testing

/// Two `herald serve` replicas on one PostgreSQL database behave as one platform: a bulk sent through one reaches
/// the event stream of the other, exactly one replica runs the carrier work, and when that one is killed with
/// SIGKILL the other takes the work over: every message is delivered, none handed to the carrier twice.
@Suite(.serialized) struct ServeReplicaTests {
    @Test func twoReplicasOnPostgreSQLSurviveTheCarrierLeadersSIGKILL() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let folder = try TempDir("handovers")
        let handOvers = folder.file("carrier.log")
        let database = ["--database", cluster.url]

        let admin = try PlatformCLI(timeScale: "5")
        admin.environment["HERALD_CARRIER_LOG"] = handOvers.path
        let made = try admin.ok(["serve", "keys", "create", "--role", "sender", "--name", "ana", "--json"] + database).object()
        let key = try #require(made["key"] as? String)
        // A second folder: the replicas share nothing but the database.
        let other = try PlatformCLI(timeScale: "5")
        other.environment["HERALD_CARRIER_LOG"] = handOvers.path

        let first = try admin.start(["serve", "--listen", "127.0.0.1:0"] + database)
        let firstURL = try Self.address(of: first)
        // The first replica takes the carrier lease before the second starts.
        try Self.waitFor("the first replica to lead") { try Self.leads(firstURL) }
        let second = try other.start(["serve", "--listen", "127.0.0.1:0"] + database)
        let secondURL = try Self.address(of: second)
        #expect(try !Self.leads(secondURL))

        // A terminal watches through the second replica and sends through the first.
        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": secondURL, "HERALD_PLATFORM_KEY": key]
        let watch = try support.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": firstURL, "HERALD_PLATFORM_KEY": key]
        let numbers = (0..<40).map { mobile(300 + $0) }
        let sent = try ana.ok(["send", "--to"] + numbers + ["--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let ids = Set((sent["recipients"] as? [[String: Any]] ?? []).compactMap { $0["messageId"] as? String })
        #expect(ids.count == 40)

        // The leader dies before the carrier's reports are in (at time scale 5 no message moves on sooner than 0.2 s
        // after it was accepted, and servers do not collect reports on read): only the second replica, once it
        // takes the carrier work over, can store the statuses the viewer waits for.
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        try Self.waitFor("the second replica to take the carrier lease", timeout: 15) { try Self.leads(secondURL) }

        let finals = ["DeliveredToNetwork", "DeliveredToTerminal", "DeliveryImpossible", "DeliveryUncertain"]
        defer {
            // What the replicas logged, when something went wrong.
            for (name, cli) in [("first", admin), ("second", other)] {
                let log = cli.home.appendingPathComponent("state/herald/herald.log")
                print("--- \(name) replica's log\n" + ((try? String(contentsOf: log, encoding: .utf8)) ?? "(none)"))
            }
        }
        try watch.waitForLines(timeout: 60, "every recipient of \(bulk) moved on at the viewer of the other replica") { lines in
            let moved = lines.compactMap(CLIPlatformWatchTests.decode).filter {
                $0["bulkId"] as? String == bulk && finals.contains($0["to"] as? String ?? "")
            }
            return Set(moved.compactMap { $0["messageId"] as? String }) == ids
        }
        #expect(try watch.interrupt() == 0)

        // Every message was sent once. A message the dead leader had claimed but whose answer it never stored
        // is handed over again once its claim runs out, marked as one that may have been sent (the carrier
        // checks instead of sending): never as new a second time.
        let lines = try String(contentsOf: handOvers, encoding: .utf8).split(separator: "\n")
        let handed = lines.map { $0.split(separator: "\t").map(String.init) }
        let sentAsNew = Dictionary(grouping: handed.filter { $0[1] == "new" }.map { $0[0] }, by: { $0 }).mapValues(\.count)
        #expect(Set(sentAsNew.keys) == ids)
        #expect(sentAsNew.values.allSatisfy { $0 == 1 }, "sent twice: \(sentAsNew.filter { $0.value > 1 }.keys.sorted())")
        let checked = Set(handed.filter { $0[1] == "resent" }.map { $0[0] })
        print("replicas: \(ids.count) messages sent once each; \(checked.count) handed again after the leader's death, marked may-have-been-sent")
        #expect(try second.interrupt() == 0)
    }

    @Test func aServerWhoseDatabaseStopsAnswers503WithRetryAfterAndNoInternals() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let (server, url, key) = try Self.serve(on: cluster)

        cluster.stop()
        let health = try Self.curl(url + "/health")
        #expect(health.status == 503)
        let session = try Self.curl(url + "/herald/1/session", key: key)
        #expect(session.status == 503)
        #expect(session.headers.lowercased().contains("retry-after: 1"))
        for answer in [health, session] {
            #expect(!answer.body.contains("SELECT") && !answer.body.contains("PSQLError") && !answer.body.contains("postgres://"))
        }
        #expect(try server.interrupt() == 0)
    }

    /// A database that stops answering (its processes stopped, connections open) cannot keep the server from ending:
    /// SIGINT ends it within the shutdown's grace (5 s) and the hard stop's margin (3 s), saying so when it had to cut
    /// the shutdown short.
    @Test func aServerWhoseDatabaseHangsStillEndsOnSIGINT() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let (server, url, key) = try Self.serve(on: cluster)

        cluster.freeze()
        // A request that waits on the frozen database, beside the carrier worker's and the key reader's own units.
        let waiting = Thread { _ = try? Self.curl(url + "/herald/1/session", key: key) }
        waiting.start()
        Thread.sleep(forTimeInterval: 1)    // nothing outside shows that they wait: give them a second to start
        let started = Date()
        let status = try server.interrupt(timeout: 20)
        let took = Date().timeIntervalSince(started)
        #expect(took < 10, "herald serve took \(took) s to end")
        if status != 0 { #expect(server.stderr.contains("the shutdown did not finish within")) }
    }

    /// `herald serve` on `cluster` with a viewer's key, answering its health check: the server, its address, the key.
    static func serve(on cluster: PostgresTestCluster) throws -> (server: RunningHerald, url: String, key: String) {
        let database = ["--database", cluster.url]
        let admin = try PlatformCLI()
        let made = try admin.ok(["serve", "keys", "create", "--role", "viewer", "--json"] + database).object()
        let key = try #require(made["key"] as? String)
        let server = try admin.start(["serve", "--listen", "127.0.0.1:0"] + database)
        let url = try address(of: server)
        #expect(try curl(url + "/health").status == 200)
        return (server, url, key)
    }

    /// One request with curl: its status, headers and body.
    /// A GET of `url`, or a POST of the JSON `post` when given.
    static func curl(_ url: String, key: String? = nil, post: String? = nil) throws -> (status: Int, headers: String, body: String) {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "-i", "--max-time", "20"] + (key.map { ["-H", "Authorization: App \($0)"] } ?? [])
            + (post.map { ["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", $0] } ?? []) + [url]
        let out = Pipe()
        curl.standardOutput = out
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts.first ?? ""
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head, parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func address(of server: RunningHerald) throws -> String {
        let line = try server.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 60)
        return try #require(line.split(separator: " ").last.map(String.init))
    }

    /// Whether the replica at `url` runs the carrier work now (its `/metrics`).
    static func leads(_ url: String) throws -> Bool {
        try curl(url + "/metrics").body.split(separator: "\n").contains("herald_carrier_leader 1")
    }

    static func waitFor(_ what: String, timeout: TimeInterval = 30, _ check: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try check() { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw CLIError("timed out waiting for \(what)")
    }
}
