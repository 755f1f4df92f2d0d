import Foundation
import Testing

/// The price before you send, on the real binary against the Infobip stand-in (its own process): messages sent through
/// it report 0.0075 EUR each; a following `send --dry-run` estimates from those reports, `[prices]` overrides them,
/// `--max-cost` and `[send] confirm_above` refuse before anything reaches the ledger, and `herald status` shows the
/// estimate beside the reported price.
@Suite(.serialized) struct CLIPriceEstimateTests {
    static let us = "+12025550123"

    func writeConfig(_ cli: PlatformCLI, _ text: String) throws {
        let folder = cli.home.appendingPathComponent("config/herald")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("config.toml"))
    }

    func estimate(_ run: PlatformCLI.Run) throws -> [String: Any] {
        try #require(try run.object()["estimate"] as? [String: Any], "\(run)")
    }

    func ledgerRows(_ cli: PlatformCLI) throws -> Int {
        try #require(try cli.ok(["deliveries", "list", "--json"]).object()["count"] as? Int)
    }

    @Test func theEstimateComesFromTheStandInsReportedPricesAndThePriceTableWins() throws {
        let cli = try PlatformCLI()
        let standIn = try InfobipEndToEndTests.StandIn(next: cli.binary)
        defer { _ = try? standIn.process.interrupt() }
        cli.environment = standIn.environment()

        // Nothing reported yet: every price is unknown, listed, and no total is made up.
        let before = try estimate(cli.ok(["send", "--dry-run", "--json", "--to", mobile(5), mobile(6)]))
        #expect(before["total"] is NSNull)
        #expect((before["countries"] as? [Any])?.isEmpty == true)
        #expect((before["unknown"] as? [[String: Any]])?.compactMap { $0["address"] as? String } == [mobile(5), mobile(6)])
        #expect((before["unknown"] as? [[String: Any]])?.first?["country"] as? String == "HR")

        // Two messages through the stand-in; its delivery reports price each at 0.0075 EUR.
        let sent = try cli.ok(["send", "--to", mobile(1), mobile(2), "--json"]).object()
        let first = try #require(sent["bulkId"] as? String)
        let reported = try cli.ok(["status", first, "--wait", "--json"], timeout: 60).object()
        let infos = reported["deliveryInfo"] as? [[String: Any]] ?? []
        #expect(infos.count == 2 && infos.allSatisfy { $0["price"] as? Double == 0.0075 && $0["currency"] as? String == "EUR" })
        // That send was made without a known price: it keeps no estimate.
        #expect(reported["estimate"] == nil)

        // The next dry run prices HR from those reports; a US number has none and is listed, not counted as 0.
        let dry = try cli.ok(["send", "--dry-run", "--json", "--to", mobile(5), mobile(6), Self.us])
        let e = try estimate(dry)
        let hr = try #require((e["countries"] as? [[String: Any]])?.first)
        #expect(hr["country"] as? String == "HR")
        #expect(hr["recipients"] as? Int == 2 && hr["parts"] as? Int == 2)
        #expect(hr["unitPrice"] as? Double == 0.0075 && hr["currency"] as? String == "EUR")
        #expect(hr["subtotal"] as? Double == 0.015)
        #expect((hr["source"] as? String)?.hasPrefix("reported ") == true && (hr["source"] as? String)?.hasSuffix("(newest of 2)") == true,
                "\(hr)")
        #expect(e["total"] as? Double == 0.015 && e["currency"] as? String == "EUR")
        #expect((e["unknown"] as? [[String: Any]])?.map { $0["country"] as? String } == ["US"])
        let table = try cli.ok(["send", "--dry-run", "--to", mobile(5), mobile(6), Self.us]).stdout
        #expect(table.contains("Estimated cost: about 0.015 EUR (without the 1 whose price is unknown)"), "\(table)")
        #expect(table.contains("0.0075") && table.contains("(newest of 2)"))
        #expect(table.contains(Self.us) && table.contains("Price unknown"))

        // [prices] wins over the reports.
        try writeConfig(cli, "[prices]\nHR = 0.05\nUS = 0.02\n")
        let priced = try estimate(cli.ok(["send", "--dry-run", "--json", "--to", mobile(5), mobile(6), Self.us]))
        let countries = priced["countries"] as? [[String: Any]] ?? []
        #expect(countries.map { $0["country"] as? String } == ["HR", "US"])
        #expect(countries.first?["unitPrice"] as? Double == 0.05 && countries.first?["source"] as? String == "[prices] HR")
        #expect(priced["total"] as? Double == 0.12)
        #expect((priced["unknown"] as? [Any])?.isEmpty == true)

        // --max-cost refuses before anything reaches the ledger; a send under it goes, and its bulk keeps the estimate.
        let rows = try ledgerRows(cli)
        let refused = try cli.run(["send", "--to", mobile(5), mobile(6), "--max-cost", "0.09"])
        #expect(refused.status == 1 && !refused.crashed)
        #expect(refused.stderr.contains("above --max-cost 0.09") && refused.stderr.contains("nothing was sent"), "\(refused)")
        #expect(refused.stderr.contains("about 0.10 EUR (HR 2 parts × 0.05)"), "\(refused)")
        #expect(try ledgerRows(cli) == rows)
        let kept = try cli.ok(["send", "--to", mobile(5), mobile(6), "--max-cost", "0.10", "--json"]).object()
        let second = try #require(kept["bulkId"] as? String)
        #expect(try ledgerRows(cli) == rows + 2)
        let status = try cli.ok(["status", second, "--wait", "--json"], timeout: 60).object()
        let kept2 = try #require(status["estimate"] as? [String: Any])
        #expect(kept2["amount"] as? Double == 0.1 && kept2["currency"] as? String == "EUR")
        let human = try cli.ok(["status", second]).stdout
        #expect(human.contains("cost 0.015 EUR") && human.contains("estimated 0.10 EUR before sending"), "\(human)")
    }

    @Test func unknownPricesAndConfirmAboveRefuseUnlessTheSenderSaysSo() throws {
        let cli = try PlatformCLI()
        let standIn = try InfobipEndToEndTests.StandIn(next: cli.binary)
        defer { _ = try? standIn.process.interrupt() }
        cli.environment = standIn.environment()
        try writeConfig(cli, "[prices]\nHR = 0.05\n\n[send]\nconfirm_above = 0.06\n")
        let rows = try ledgerRows(cli)

        // A US number has no price: --max-cost cannot be kept without --allow-unknown-price.
        let unknown = try cli.run(["send", "--to", mobile(7), Self.us, "--max-cost", "5", "--yes"])
        #expect(unknown.status == 1 && unknown.stderr.contains("--max-cost cannot be kept"), "\(unknown)")
        #expect(unknown.stderr.contains(Self.us) && unknown.stderr.contains("--allow-unknown-price"))
        // Above [send] confirm_above: refused without --yes.
        let above = try cli.run(["send", "--to", mobile(7), mobile(8)])
        #expect(above.status == 1 && above.stderr.contains("above [send] confirm_above = 0.06: pass --yes"), "\(above)")
        #expect(try ledgerRows(cli) == rows)
        // Under it: no question.
        _ = try cli.ok(["send", "--to", mobile(7)])
        #expect(try ledgerRows(cli) == rows + 1)
        // Said yes, with the unknown price allowed: sent.
        _ = try cli.ok(["send", "--to", mobile(8), Self.us, "--max-cost", "5", "--allow-unknown-price", "--yes"])
        #expect(try ledgerRows(cli) == rows + 3)

        // A [prices] entry that is not a country is refused with its line.
        try writeConfig(cli, "[prices]\nCroatia = 0.05\n")
        let bad = try cli.run(["send", "--dry-run", "--to", mobile(9)])
        #expect(bad.status != 0 && !bad.crashed)
        #expect(bad.stderr.contains("prices.Croatia is not a country") && bad.stderr.contains("config.toml:2:"), "\(bad)")
    }

    @Test func aServerRefusesASendPastTheKeysDailyCapAndTheTerminalSaysWhy() throws {
        let server = try PlatformCLI(timeScale: "50")
        let made = try server.ok(["serve", "keys", "create", "--role", "sender", "--name", "desk", "--max-spend-per-day", "0.03",
                                  "--json"]).object()
        #expect(made["maxSpendPerDay"] as? Double == 0.03)
        let key = try #require(made["key"] as? String)
        #expect(try server.ok(["serve", "keys", "list"]).stdout.contains("spends at most 0.03 a day"))
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0"])
        defer { _ = try? serving.interrupt() }
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        let desk = try PlatformCLI()
        desk.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": key]

        // Two single-part messages at the server's 0.01 a part; a third pair would pass 0.03.
        _ = try desk.ok(["send", "--to", mobile(31), mobile(32), "--json"])
        let refused = try desk.run(["send", "--to", mobile(33), mobile(34)])
        #expect(refused.status == 1 && !refused.crashed, "\(refused)")
        let said = refused.stdout + refused.stderr
        #expect(said.contains("key \"desk\" may spend 0.03 a day (--max-spend-per-day): 0.02 spent today (UTC), "
                              + "and this send is estimated at 0.02"), "\(refused)")
        // One more fits under the cap.
        _ = try desk.ok(["send", "--to", mobile(35)])
    }
}
