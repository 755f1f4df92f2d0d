import Foundation
import Testing

/// `herald watch --notify`: a bulk that settles in the sandbox is announced through the configured `[notify] command`
/// (a real script that records its arguments), once, although two watchers follow the same data folder.
@Suite(.serialized) struct CLIWatchNotifyTests {
    /// Writes config.toml where the CLI's runs read it, and a script that appends one line per call: the number of its
    /// arguments, then each argument, tab-separated.
    static func setUp(_ cli: PlatformCLI, notify: String) throws -> URL {
        let calls = cli.home.appendingPathComponent("calls")
        let script = cli.home.appendingPathComponent("page-me.sh")
        try """
        #!/bin/sh
        line="$#"
        for a in "$@"; do line="$line\t$a"; done
        printf '%s\\n' "$line" >> '\(calls.path)'
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let folder = cli.home.appendingPathComponent("config/herald")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "[notify]\ncommand = \"\(script.path)\"\n\(notify)\n".write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        return calls
    }

    static func calls(_ file: URL) -> [[String]] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.components(separatedBy: "\t") }
    }

    @Test func twoWatchersGiveEachNoticeOnceThroughTheCommand() throws {
        let cli = try PlatformCLI()
        let callsFile = try Self.setUp(cli, notify: "failures = 1")
        try cli.ok(["templates", "show"])          // creates the workspace before three processes share it
        let first = try cli.start(["watch", "--notify", "--json"])
        let second = try cli.start(["watch", "--notify", "--json"])
        try first.waitForStderr("watching deliveries", timeout: 30)
        try second.waitForStderr("watching deliveries", timeout: 30)

        let sent = try cli.ok(["send", "--to", mobile(21), mobile(22), mobile(23), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let settledTitle = "bulk \(bulk.prefix(8)) settled"
        let deadline = Date().addingTimeInterval(60)
        while !Self.calls(callsFile).contains(where: { $0.count > 1 && $0[1] == settledTitle }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
        }
        Thread.sleep(forTimeInterval: 2)           // time for a second notice, were one to come
        let linesOf = { (run: RunningHerald) in try run.waitForLines(timeout: 5, "what it printed") { _ in true } }
        let each = [try linesOf(first), try linesOf(second)]
        let printed = each[0] + each[1]
        #expect(try first.interrupt() == 0)
        #expect(try second.interrupt() == 0)

        let calls = Self.calls(callsFile)
        let settled = calls.filter { $0.count > 1 && $0[1] == settledTitle }
        #expect(settled.count == 1, "\(calls)")
        #expect(settled.first?.count == 3 && settled.first?[0] == "2", "title and body are the two arguments: \(calls)")
        #expect(settled.first?.last?.hasPrefix("3 recipients: ") == true)

        // A failure (the sandbox fails about one in ten) is a notice too, once: the threshold is 1.
        let infos = try cli.ok(["status", bulk, "--json"]).object()["deliveryInfo"] as? [[String: Any]] ?? []
        let failed = infos.filter { $0["deliveryStatus"] as? String == "DeliveryImpossible" }.count
        let failures = calls.filter { $0.count > 1 && $0[1].hasPrefix("bulk \(bulk.prefix(8)): ") && $0[1].hasSuffix(" failed") }
        #expect(failures.count == (failed > 0 ? 1 : 0), "\(failed) failed; calls: \(calls)")

        // Each watcher printed the notices it gave, as JSON objects beside the changes: one settled between the two.
        let notices = printed.compactMap { CLIPlatformWatchTests.decode($0) }.filter { $0["notice"] != nil }
        #expect(notices.filter { $0["notice"] as? String == "bulk-settled" && $0["subject"] as? String == bulk }.count == 1, "\(printed)")
        for notice in notices { #expect(Set(notice.keys) == ["notice", "subject", "title", "body", "at"]) }
        // The watcher that gave it printed it after the changes that settled the bulk.
        for lines in each {
            let objects = lines.compactMap { CLIPlatformWatchTests.decode($0) }
            guard let at = objects.firstIndex(where: { $0["notice"] as? String == "bulk-settled" }) else { continue }
            #expect(!objects[(at + 1)...].contains { $0["bulkId"] as? String == bulk }, "\(lines)")
        }
    }

    /// A message pushed to a followed inbox (by another process) is one notice, its title in the body; one pushed to
    /// an inbox nobody follows is none.
    @Test func aMessageInAFollowedInboxIsANotice() throws {
        let cli = try PlatformCLI()
        let callsFile = try Self.setUp(cli, notify: "")
        try cli.ok(["templates", "show"])
        let watch = try cli.start(["watch", "--notify", "--inbox", "ana", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        try cli.ok(["sandbox", "push-inbox", "--user", "bob", "--title", "Not followed", "--body", "x"])
        try cli.ok(["sandbox", "push-inbox", "--user", "ana", "--title", "Your invite \u{1B}]0;x\u{07}is here", "--body", "Open https://x.example"])
        let lines = try watch.waitForLines(timeout: 30, "the inbox notice") { lines in
            lines.contains { CLIPlatformWatchTests.decode($0)?["notice"] as? String == "inbox-message" }
        }
        Thread.sleep(forTimeInterval: 2)
        #expect(try watch.interrupt() == 0)
        let notice = try #require(lines.compactMap { CLIPlatformWatchTests.decode($0) }.first { $0["notice"] as? String == "inbox-message" })
        #expect(notice["subject"] as? String == "ana")
        #expect(notice["title"] as? String == "new message for ana")
        let calls = Self.calls(callsFile)
        #expect(calls.map { Array($0.dropFirst()) } == [["new message for ana", "Your invite is here"]], "\(calls)")
    }

    @Test func noticesOffGiveNoneAndAWrongThresholdIsRefusedByName() throws {
        let cli = try PlatformCLI()
        let callsFile = try Self.setUp(cli, notify: "enabled = false")
        try cli.ok(["templates", "show"])
        let watch = try cli.start(["watch", "--notify", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        let sent = try cli.ok(["send", "--to", mobile(31), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        try cli.ok(["status", bulk, "--wait", "--json"], timeout: 90)
        Thread.sleep(forTimeInterval: 2)
        #expect(try watch.interrupt() == 0)
        #expect(Self.calls(callsFile).isEmpty)

        _ = try Self.setUp(cli, notify: "failures = \"0%\"")
        let refused = try cli.run(["watch", "--notify"])
        #expect(refused.status != 0 && !refused.crashed)
        #expect(refused.stderr.contains("notify.failures"), "\(refused)")
    }
}
