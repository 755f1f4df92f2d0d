import Foundation
import Testing

/// `herald serve` as its own process, with terminals on it: a sender's bulk reaches a viewer's `herald watch`
/// live, the viewer is refused a send, and the server stops cleanly on SIGINT.
@Suite(.serialized) struct ServeTests {
    @Test func aSenderAndAViewerOnOneServerSeeTheSameBulkLive() throws {
        let server = try PlatformCLI(timeScale: "50")
        let sender = try server.ok(["serve", "keys", "create", "--role", "sender", "--name", "ana", "--json"]).object()
        let viewer = try server.ok(["serve", "keys", "create", "--role", "viewer", "--json"]).object()
        let senderKey = try #require(sender["key"] as? String)
        let viewerKey = try #require(viewer["key"] as? String)
        #expect(sender["role"] as? String == "sender")
        // Only hashes are kept: the key is nowhere in the server's files.
        let listed = try server.ok(["serve", "keys", "list", "--json"]).stdout
        #expect(!listed.contains(senderKey))

        let serving = try server.start(["serve", "--listen", "127.0.0.1:0"])
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let support = try PlatformCLI()
        support.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": viewerKey]
        let watch = try support.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)

        let sent = try ana.ok(["send", "--to", mobile(21), mobile(22), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let ids = Set((sent["recipients"] as? [[String: Any]] ?? []).compactMap { $0["messageId"] as? String })
        #expect(ids.count == 2)
        // The viewer's terminal sees the colleague's bulk arrive and its recipients move on live (the simulated
        // carrier leaves some messages at the network for good, so "reached the network" counts).
        try watch.waitForLines(timeout: 30, "both recipients of \(bulk) moved on at the viewer") { lines in
            let final = lines.compactMap(CLIPlatformWatchTests.decode).filter {
                $0["bulkId"] as? String == bulk
                    && ["DeliveredToNetwork", "DeliveredToTerminal", "DeliveryImpossible", "DeliveryUncertain"].contains($0["to"] as? String ?? "")
            }
            return Set(final.compactMap { $0["messageId"] as? String }) == ids
        }
        #expect(try watch.interrupt() == 0)

        let refused = try support.run(["send", "--to", mobile(23)])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("viewer key"))
        #expect(refused.stderr.contains("no contact was marked"), "refused before anything was written: \(refused.stderr)")
        #expect(!refused.crashed)

        // A wrong key says what to do.
        let stranger = try PlatformCLI()
        stranger.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": "hk_wrong"]
        let denied = try stranger.run(["templates", "show"])
        #expect(denied.status == 1)
        #expect(denied.stderr.contains("refused the key"))

        #expect(try serving.interrupt() == 0)
    }
}
