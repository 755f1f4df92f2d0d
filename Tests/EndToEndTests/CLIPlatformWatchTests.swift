import Foundation
import Testing

@Suite(.serialized) struct CLIPlatformWatchTests {
    /// `herald watch --json` prints one line per status change of a bulk sent by another process,
    /// and stops cleanly (exit 0) on SIGINT.
    @Test func watchPrintsChangesOfABulkSentFromAnotherProcessAndStopsOnSIGINT() throws {
        let cli = try PlatformCLI()
        cli.environment["HERALD_SANDBOX_TIME_SCALE"] = "2000"
        try cli.ok(["templates", "show"])  // creates the workspace before two processes share it
        let watch = try cli.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)  // sends from now on are seen as new

        let sent = try cli.ok(["send", "--to", mobile(11), mobile(12), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let ids = Set((sent["recipients"] as? [[String: Any]] ?? []).compactMap { $0["messageId"] as? String })
        #expect(ids.count == 2)

        // Every recipient gets at least one line (from null when first seen), saying where from and where to.
        let lines = try watch.waitForLines(timeout: 30, "a change for both recipients") { lines in
            let seen = Set(lines.compactMap { Self.decode($0)?["messageId"] as? String })
            return ids.isSubset(of: seen)
        }
        for line in lines {
            let o = try #require(Self.decode(line), "not JSON: \(line)")
            #expect(Set(o.keys) == ["bulkId", "address", "messageId", "personId", "from", "to", "at"])
            #expect(o["bulkId"] as? String == bulk)
            #expect([mobile(11), mobile(12)].contains(o["address"] as? String ?? ""))
            #expect(o["personId"] is NSNull)
            #expect(o["to"] as? String != o["from"] as? String)
            #expect(ISO8601DateFormatter.withMilliseconds.date(from: o["at"] as? String ?? "") != nil)
        }

        // A bulk that another process follows to its end (`status --wait` polls before the watch does)
        // is reported as well, up to the status that process saw.
        let next = try cli.ok(["send", "--to", mobile(13), "--json"]).object()
        let nextBulk = try #require(next["bulkId"] as? String)
        let waited = try cli.ok(["status", nextBulk, "--wait", "--json"]).object()
        let info = try #require((waited["deliveryInfo"] as? [[String: Any]])?.first)
        let messageId = try #require(info["messageId"] as? String)
        let final = try #require(info["deliveryStatus"] as? String)
        try watch.waitForLines(timeout: 30, "\(messageId) to reach \(final)") { lines in
            lines.contains { Self.decode($0)?["messageId"] as? String == messageId && Self.decode($0)?["to"] as? String == final }
        }
        #expect(try watch.interrupt() == 0)
    }

    static func decode(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
}

extension ISO8601DateFormatter {
    static var withMilliseconds: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
