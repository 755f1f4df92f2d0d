import Foundation
import HeraldTestKit
import Testing

/// The terminal UI's notices and links, in a real terminal (tmux): a bulk another process sends settles and the status
/// bar says so (the `[notify] command` is run too); the Share pane's links go out as OSC 8 hyperlinks when forced on,
/// and not at all under NO_COLOR.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIAttentionTests {
    static func writeConfig(_ cli: PlatformCLI, _ text: String) throws {
        let folder = cli.home.appendingPathComponent("config/herald")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }

    @Test func aBulkThatSettlesIsANoticeInTheStatusBar() throws {
        let cli = try PlatformCLI()
        let callsFile = try CLIWatchNotifyTests.setUp(cli, notify: "failures = \"50%\"")
        try cli.ok(["templates", "show"])
        let session = try cli.terminal(width: 140)
        defer { session.kill() }
        try session.waitFor(text: "5 Deliveries", timeout: 30)
        let sent = try cli.ok(["send", "--to", mobile(41), mobile(42), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let notice = "bulk \(bulk.prefix(8)) settled: 2 recipients: "
        let screen = try session.waitUntil(timeout: 60, "the settled notice in the status bar") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains(notice) == true
        }
        let statusLine = try #require(screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(statusLine.contains("● "), "\(statusLine)")
        #expect(statusLine.range(of: #"● \d\d:\d\d:\d\d bulk"#, options: .regularExpression) != nil, "\(statusLine)")
        // The command was given the same notice, once (another notice, of the failures, may come before it).
        func settledCalls() -> Int {
            CLIWatchNotifyTests.calls(callsFile).filter { $0.count > 1 && $0[1] == "bulk \(bulk.prefix(8)) settled" }.count
        }
        let deadline = Date().addingTimeInterval(10)
        while settledCalls() == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(settledCalls() == 1)
    }

    /// What the program wrote while the Share pane was shown, with `[ui] hyperlinks = "on"` and `environment`.
    static func shareOutput(environment: [String: String]) throws -> (screen: String, bytes: String) {
        let cli = try PlatformCLI()
        try writeConfig(cli, "[ui]\nhyperlinks = \"on\"\n")
        try cli.ok(["templates", "show"])
        let session = try cli.terminal(width: 110, environment: environment)
        defer { session.kill() }
        try session.waitFor(text: "5 Deliveries", timeout: 30)
        let record = cli.home.appendingPathComponent("output-\(UUID().uuidString)")
        try session.recordOutput(to: record)
        try session.sendKeys("2")
        let screen = try session.waitUntil(timeout: 20, "the referral link") { $0.contains("Referral link") && $0.contains("/r/") }
        Thread.sleep(forTimeInterval: 0.5)          // pipe-pane's cat writes what it read
        return (screen, String(decoding: (try? Data(contentsOf: record)) ?? Data(), as: UTF8.self))
    }

    @Test func theSharePanesLinksAreOSC8HyperlinksWhenOnAndPlainUnderNoColor() throws {
        // (The test runner's NO_COLOR would reach the program: an empty one is no NO_COLOR, as no-color.org says.)
        let on = try Self.shareOutput(environment: ["NO_COLOR": ""])
        let url = try #require(on.screen.split(separator: " ").first { $0.hasPrefix("http") && $0.contains("/r/") }.map(String.init))
        #expect(on.bytes.contains("\u{1B}]8;;\(url)\u{1B}\\\(url)\u{1B}]8;;\u{1B}\\"), "no OSC 8 around \(url)")
        #expect(on.bytes.contains("\u{1B}]8;;https://twitter.com/intent/tweet?"))

        let plain = try Self.shareOutput(environment: ["NO_COLOR": "1"])
        #expect(plain.screen.contains("Referral link"))
        #expect(!plain.bytes.isEmpty)
        #expect(!plain.bytes.contains("\u{1B}]8;"))
    }
}
