import Foundation
import Testing

/// Every line a `herald` command prints, for people or as JSON, stays free of terminal controls when the server is
/// hostile: a proxy (Fixtures/hostile_proxy.py) in front of a real `herald serve` puts OSC title and clipboard
/// writes, CSI colours, a C1 CSI and BEL into every text, id, reason and link it answers.
@Suite(.serialized) struct HostileServerTests {
    /// C0 controls but newline and tab, DEL and C1: what a terminal may act on.
    static func controls(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || (0x7F...0x9F).contains($0) }
    }

    @Test func noCommandPrintsAControlCharacterTheServerSent() throws {
        let server = try PlatformCLI(timeScale: "50")
        let key = try #require(try server.ok(["serve", "keys", "create", "--role", "sender", "--json"]).object()["key"] as? String)
        try server.ok(["sandbox", "push-inbox", "--user", "demo", "--topic", "news", "--title", "Hello", "--body", "Welcome"])
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0"])
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let address = try #require(line.split(separator: " ").last.map(String.init))
        let proxy = try FixtureProxy("hostile_proxy.py", upstream: address)
        defer { withExtendedLifetime(proxy) {} }      // the proxy serves until the test's end
        let url = proxy.url

        let cli = try PlatformCLI()
        cli.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": key]
        var runs: [(String, PlatformCLI.Run)] = []
        func run(_ args: [String]) throws -> PlatformCLI.Run {
            let r = try cli.run(args)
            runs.append((args.joined(separator: " "), r))
            return r
        }
        let sent = try run(["send", "--to", mobile(41), "--json"])
        let bulk = try #require(try sent.object()["bulkId"] as? String)
        #expect(bulk.contains("\u{1B}"), "the proxy did poison the bulk id")
        _ = try run(["send", "--to", mobile(42)])
        for args in [["status", bulk], ["status", bulk, "--json"], ["templates", "show"], ["templates", "list"], ["templates", "list", "--json"],
                     ["inbox", "list", "--user", "demo"], ["inbox", "list", "--user", "demo", "--json"], ["share", "link"], ["share", "urls"],
                     ["platform", "check"], ["suggest"], ["optout", "add", mobile(43)], ["optout", "list"]] {
            _ = try run(args)
        }
        // Both started before either is waited on: each sees the same changes of the two sends.
        let watches = [("watch --json", try cli.start(["watch", "--json"])), ("watch", try cli.start(["watch"]))]
        for (command, watch) in watches {
            let changes = try watch.waitForLines(timeout: 30, "a status change") { !$0.isEmpty }
            #expect(try watch.interrupt() == 0)
            runs.append((command, PlatformCLI.Run(status: 0, stdout: changes.joined(separator: "\n"), stderr: watch.stderr)))
        }
        let optedOut = try #require(runs.first { $0.0 == "optout add \(mobile(43))" }?.1)
        #expect(optedOut.status == 0 && optedOut.stdout.contains("opted out"), "the opt-out went through the proxy: \(optedOut)")

        #expect(runs.count >= 17)
        for (command, r) in runs {
            #expect(!r.crashed, "herald \(command): \(r)")
            #expect(Self.controls(in: r.stdout + r.stderr).isEmpty, "herald \(command) printed a control character: \(r)")
        }
        let inbox = try #require(runs.first { $0.0 == "inbox list --user demo" }?.1)
        #expect(inbox.stdout.contains("Welcome"), "the inbox was read through the proxy: \(inbox)")
        #expect(try serving.interrupt() == 0)
    }
}
