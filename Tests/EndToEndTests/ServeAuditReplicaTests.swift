import Foundation
import HeraldTestKit
import Testing

/// The audit trail of two `herald serve` replicas on one PostgreSQL database is one trail: what a key does through
/// one replica, `herald audit` shows through the other, with the key's name and the client's address; a viewer reads
/// the bulks' entries, never the keys'.
@Suite(.serialized) struct ServeAuditReplicaTests {
    @Test func anActionThroughOneReplicaIsInTheTrailReadThroughTheOther() throws {
        let cluster = try PostgresTestCluster.start()
        defer { cluster.stop() }
        let database = ["--database", cluster.url]
        let console = try PlatformCLI(timeScale: "5")
        console.environment["USER"] = "ops"
        func key(_ role: String, _ name: String) throws -> String {
            try #require(try console.ok(["serve", "keys", "create", "--role", role, "--name", name, "--json"] + database).object()["key"] as? String)
        }
        let (senderKey, viewerKey, adminKey) = (try key("sender", "ana"), try key("viewer", "desk"), try key("admin", "boss"))
        let other = try PlatformCLI(timeScale: "5")
        let first = try console.start(["serve", "--listen", "127.0.0.1:0"] + database)
        let second = try other.start(["serve", "--listen", "127.0.0.1:0"] + database)
        let (firstURL, secondURL) = (try ServeReplicaTests.address(of: first), try ServeReplicaTests.address(of: second))

        // The support desk's terminal follows the second replica's events.
        let desk = try PlatformCLI()
        desk.environment = ["HERALD_PLATFORM_URL": secondURL, "HERALD_PLATFORM_KEY": viewerKey]
        let watch = try desk.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)

        // Ana sends through the first replica (held for its undo window), and takes it back through the second.
        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": firstURL, "HERALD_PLATFORM_KEY": senderKey, "HERALD_HOLD_SECONDS": "60"]
        let bulk = try #require(try ana.ok(["send", "--to", mobile(41), mobile(42), "--json"]).object()["bulkId"] as? String)
        ana.environment["HERALD_PLATFORM_URL"] = secondURL
        _ = try ana.ok(["bulks", "cancel", bulk])
        _ = try ana.ok(["optout", "add", mobile(43)])

        // The desk learnt Ana's bulk from the other replica's events, with who sent it: `by:ana` finds it.
        try watch.waitForLines(timeout: 30, "the desk learns bulk \(bulk)") { lines in
            lines.compactMap(CLIPlatformWatchTests.decode).contains { $0["bulkId"] as? String == bulk }
        }
        #expect(try watch.interrupt() == 0)
        let byAna = try desk.ok(["deliveries", "list", "--query", "by:ana", "--json"]).object()
        let found = try #require(byAna["recipients"] as? [[String: Any]])
        #expect(found.count == 2 && found.allSatisfy { $0["bulkId"] as? String == bulk && $0["sentBy"] as? String == "ana" }, "\(byAna)")

        // The support desk reads the trail through the first replica: all three, newest first, under Ana's key.
        desk.environment["HERALD_PLATFORM_URL"] = firstURL
        let seen = try #require(try desk.ok(["audit", "--json"]).array() as? [[String: Any]])
        #expect(seen.compactMap { $0["action"] as? String } == ["opt-out-add", "take-back", "send"], "\(seen)")
        #expect(seen.allSatisfy { $0["actor"] as? String == "ana" && $0["role"] as? String == "sender" && $0["address"] as? String == "127.0.0.1" })
        #expect(seen[1]["bulkId"] as? String == bulk && seen[2]["bulkId"] as? String == bulk)
        #expect(seen[2]["what"] as? String == "2 recipients, sender Herald" || (seen[2]["what"] as? String)?.hasPrefix("2 recipients, sender Herald, held until") == true,
                "\(seen[2])")
        #expect(seen[0]["subject"] as? String == mobile(43))
        // One bulk's story, and the table people read.
        let story = try #require(try desk.ok(["audit", "--bulk", bulk, "--json"]).array() as? [[String: Any]])
        #expect(story.compactMap { $0["action"] as? String } == ["take-back", "send"])
        let table = try desk.ok(["audit", "--bulk", bulk]).stdout
        #expect(table.contains("take-back") && table.contains("ana") && table.contains("sender, 127.0.0.1"), "\(table)")

        // A key's history: the admin reads it through the second replica, made at the console by "ops"; the desk cannot.
        let boss = try PlatformCLI()
        boss.environment = ["HERALD_PLATFORM_URL": secondURL, "HERALD_PLATFORM_KEY": adminKey]
        let keys = try #require(try boss.ok(["audit", "--action", "key-create", "--json"]).array() as? [[String: Any]])
        #expect(keys.count == 3 && keys.allSatisfy { $0["actor"] as? String == "ops" && $0["address"] as? String == "local" }, "\(keys)")
        let refused = try desk.run(["audit", "--action", "key-create"])
        #expect(refused.status == 1 && refused.stderr.contains("only an admin key reads the history of keys"), "\(refused)")

        #expect(try first.interrupt() == 0)
        #expect(try second.interrupt() == 0)
    }
}
