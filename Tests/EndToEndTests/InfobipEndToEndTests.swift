import Foundation
import Testing

/// The real binary on an Infobip workspace, where Infobip is the `infobip-stand-in` process on a loopback port:
/// `platform check`, `send`, `status` with Infobip's price, the inbox, and a refused key explained.
@Suite(.serialized) struct InfobipEndToEndTests {
    /// The stand-in as its own process, and the environment that points Herald at it.
    struct StandIn {
        let process: RunningHerald
        let url: String

        /// `arguments`: the stand-in's knobs (`--sent-log`, `--lose-send-answers`, `--delay-send-answers`).
        init(next herald: URL, inboxUser: String? = nil, arguments: [String] = []) throws {
            let binary = herald.deletingLastPathComponent().appendingPathComponent("infobip-stand-in")
            process = try RunningHerald(binary: binary, arguments: ["--port", "0"] + (inboxUser.map { ["--inbox-user", $0] } ?? []) + arguments,
                                        environment: ProcessInfo.processInfo.environment)
            let line = try process.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
            url = line.split(separator: " ").last.map(String.init) ?? ""
        }

        func environment(key: String = "stand-in-key") -> [String: String] {
            ["HERALD_PLATFORM": "infobip", "HERALD_INFOBIP_BASE_URL": url, "HERALD_INFOBIP_MOBILE_BASE_URL": url,
             "HERALD_INFOBIP_API_KEY": key, "HERALD_INFOBIP_APP_CODE": "stand-in-app-code",
             "HERALD_INFOBIP_LINK": "https://example.com/join"]
        }
    }

    @Test func sendStatusAndInboxWorkOnAnInfobipAccount() throws {
        let cli = try PlatformCLI()
        let standIn = try StandIn(next: cli.binary, inboxUser: "ana")
        defer { _ = try? standIn.process.interrupt() }
        cli.environment = standIn.environment()

        let check = try cli.ok(["platform", "check"])
        #expect(check.stdout.contains("ok   SMS sending \(standIn.url)"))
        #expect(check.stdout.contains("ok   SMS logs \(standIn.url)"))
        #expect(check.stdout.contains("the application code is accepted"))

        let watch = try cli.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        let sent = try cli.ok(["send", "--to", mobile(1), mobile(2), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        // `herald watch` follows the bulk to Infobip's final reports.
        try watch.waitForLines(timeout: 30, "both recipients delivered in herald watch") { lines in
            let delivered = lines.compactMap(CLIPlatformWatchTests.decode).filter {
                $0["bulkId"] as? String == bulk && $0["to"] as? String == "DeliveredToTerminal"
            }
            return delivered.count == 2
        }
        #expect(try watch.interrupt() == 0)
        let status = try cli.ok(["status", bulk, "--wait", "--json"], timeout: 60).object()
        let infos = status["deliveryInfo"] as? [[String: Any]] ?? []
        #expect(infos.count == 2)
        #expect(infos.allSatisfy { $0["deliveryStatus"] as? String == "DeliveredToTerminal" })
        #expect(infos.allSatisfy { $0["price"] as? Double == 0.0075 && $0["currency"] as? String == "EUR" })
        let table = try cli.ok(["status", bulk]).stdout
        #expect(table.contains("0.0075 EUR"))
        #expect(table.contains("cost 0.015 EUR"))

        let inbox = try cli.ok(["inbox", "list", "--user", "ana"]).stdout
        #expect(inbox.contains("Your invitation was accepted."))
        #expect(inbox.contains("A silent message."))
        #expect(inbox.contains("2 unread"))
    }

    @Test func theScreensRunOnInfobipAndTheBulkDetailShowsInfobipsPrice() throws {
        let cli = try PlatformCLI()
        let standIn = try StandIn(next: cli.binary, inboxUser: "ana")
        defer { _ = try? standIn.process.interrupt() }
        cli.environment = standIn.environment()
        let sent = try cli.ok(["send", "--to", mobile(4), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        _ = try cli.ok(["status", bulk, "--wait"], timeout: 60)

        let ui = try cli.terminal(width: 110)
        defer { ui.kill() }
        // The status bar names the platform (waited for with the tab bar: they may arrive in separate frames).
        _ = try ui.waitUntil(timeout: 30, "the tab bar and the status bar") { $0.contains("5 Deliveries") && $0.contains("infobip 127.0.0.1") }
        try ui.sendKeys("5")
        _ = try ui.waitFor(text: String(bulk.prefix(8)), timeout: 10)
        try ui.sendKeys("Enter")
        let detail = try ui.waitFor(text: "0.0075 EUR", timeout: 10)
        #expect(detail.contains("delivered"))
        try ui.sendKeys("4", ":")
        try ui.sendLiteral("user ana")
        try ui.sendKeys("Enter")
        _ = try ui.waitFor(text: "A silent message.", timeout: 10)
    }

    @Test func aRefusedKeySaysSoAndWhereItIsSetAndTheRowsKeepTheReason() throws {
        let cli = try PlatformCLI()
        let standIn = try StandIn(next: cli.binary, inboxUser: "ana")
        defer { _ = try? standIn.process.interrupt() }
        cli.environment = standIn.environment(key: "not-the-key")

        let check = try cli.run(["platform", "check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("the Infobip API key was refused"))
        #expect(check.stdout.contains("HERALD_INFOBIP_API_KEY"))
        #expect(!check.stdout.contains("not-the-key"))

        let sent = try cli.run(["send", "--to", mobile(3), "--json"])
        #expect(!sent.crashed)
        // Nobody was accepted: the exit says so, the reason is given once and whole, and the JSON carries it too.
        #expect(sent.status == 1)
        #expect(sent.stderr.contains("no recipient was accepted: ") && sent.stderr.contains("HERALD_INFOBIP_API_KEY"), "\(sent)")
        let recipient = try #require((try sent.object()["recipients"] as? [[String: Any]])?.first)
        #expect((recipient["reason"] as? String)?.contains("the Infobip API key was refused") == true)
        let human = try cli.run(["send", "--to", mobile(5)])
        #expect(human.status == 1)
        #expect(human.stdout.contains("* 1 recipient: ") && human.stdout.contains("HERALD_INFOBIP_API_KEY"), "\(human)")
        let bulk = try #require(try sent.object()["bulkId"] as? String)
        let status = try cli.ok(["status", bulk]).stdout
        #expect(status.contains("the Infobip API key was refused"))
    }

    @Test func anIncompleteConfigurationNamesWhatIsMissing() throws {
        let cli = try PlatformCLI()
        cli.environment = ["HERALD_PLATFORM": "infobip", "HERALD_INFOBIP_BASE_URL": "https://x.api.infobip.com"]
        let run = try cli.run(["templates", "show"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no API key is set"))
        #expect(!run.crashed)
    }
}
