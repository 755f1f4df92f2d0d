import Foundation
import Testing

/// Held sends on a Herald server: the server holds a bulk through its undo window and sends it by itself when the
/// window ends (no terminal needs to run); a sender takes one back from any terminal; a viewer cannot.
@Suite(.serialized) struct ServeHoldTests {
    @Test func theServerHoldsSendsAtTheirTimeAndATakeBackIsForGood() throws {
        let server = try PlatformCLI(timeScale: "50")
        let log = server.home.appendingPathComponent("handovers.log")
        server.environment["HERALD_CARRIER_LOG"] = log.path
        let senderKey = try #require(try server.ok(["serve", "keys", "create", "--role", "sender", "--name", "ana", "--json"]).object()["key"] as? String)
        let viewerKey = try #require(try server.ok(["serve", "keys", "create", "--role", "viewer", "--json"]).object()["key"] as? String)
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0"])
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        let handed = { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").count }

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey, "HERALD_HOLD_SECONDS": "30"]
        let started = Date()
        let held = try ana.ok(["send", "--to", mobile(31), mobile(32), "--json"])
        #expect(Date().timeIntervalSince(started) < 15, "a terminal on a server does not wait out the window")
        #expect(held.stderr.contains("the server sends it then"), "\(held.stderr)")
        let bulk = try #require(try held.object()["bulkId"] as? String)

        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": viewerKey]
        // A colleague learns the held bulk with its time, and lists it.
        _ = try support.ok(["status", bulk])
        let teamHeld = try #require(try support.ok(["bulks", "list", "--json"]).array() as? [[String: Any]])
        #expect(teamHeld.first?["bulkId"] as? String == bulk && teamHeld.first?["held"] as? Int == 2, "\(teamHeld)")
        let refused = try support.run(["bulks", "cancel", bulk])
        #expect(refused.status == 1 && refused.stderr.contains("viewer key"), "\(refused)")

        let taken = try ana.ok(["bulks", "cancel", bulk])
        #expect(taken.stdout.contains("taken back: 2 invitations; nothing was sent"), "\(taken)")
        // The colleague sees it cancelled too.
        let seen = try support.ok(["status", bulk, "--json"]).object()
        #expect((seen["deliveryInfo"] as? [[String: Any]])?.compactMap { $0["deliveryStatus"] as? String } == ["Cancelled", "Cancelled"])

        // A short window: the server hands it over by itself when it ends, with no terminal asking.
        ana.environment["HERALD_HOLD_SECONDS"] = "2"
        let leaving = try #require(try ana.ok(["send", "--to", mobile(33), "--json"]).object()["bulkId"] as? String)
        let deadline = Date().addingTimeInterval(20)
        while handed() < 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(handed() == 1, "only the one send that was not taken back reached the carrier")
        let late = try ana.run(["bulks", "cancel", leaving])
        #expect(late.status == 1 && late.stdout.contains("too late: 1 invitation had already left"), "\(late)")

        // The opt-out list is the team's: a number a colleague opted out, and one that replied STOP to the server's
        // carrier, are refused to every sender.
        _ = try ana.ok(["optout", "add", mobile(34)])
        let replied = try server.ok(["serve", "reply", "--from", mobile(35), "--text", "stop"])
        #expect(replied.stdout.contains("opted out (reply: STOP)"), "\(replied)")
        let seenByViewer = try #require(try support.ok(["optout", "list", "--json"]).array() as? [[String: Any]])
        #expect(Set(seenByViewer.compactMap { $0["number"] as? String }) == [mobile(34), mobile(35)])
        let viewerAdds = try support.run(["optout", "add", mobile(36)])
        #expect(viewerAdds.status == 1 && viewerAdds.stderr.contains("viewer key"), "\(viewerAdds)")
        ana.environment["HERALD_HOLD_SECONDS"] = "0"
        let refusedAll = try ana.run(["send", "--to", mobile(34), mobile(35)])
        #expect(refusedAll.status == 1 && refusedAll.stderr.contains("opted out on"), "\(refusedAll)")
        #expect(try serving.interrupt() == 0)
    }
}
