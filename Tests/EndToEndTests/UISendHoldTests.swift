import Foundation
import Testing

/// The undo window and held bulks in the real TUI, in tmux: a send counts down on screen and ctrl-x takes it back
/// before anything leaves; Deliveries shows a scheduled bulk with its time, `:move` moves it and ctrl-x on it takes
/// it back.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UISendHoldTests {
    static func statuses(_ cli: PlatformCLI, _ bulk: String) throws -> [String] {
        let status = try cli.ok(["status", bulk, "--json"]).object()
        return (status["deliveryInfo"] as? [[String: Any]] ?? []).compactMap { $0["deliveryStatus"] as? String }
    }

    /// The seconds the countdown shows ("leaves in 57 s").
    static func seconds(_ screen: String) -> Int? {
        guard let range = screen.range(of: "leaves in ") else { return nil }
        return Int(screen[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aSendCountsDownAndCtrlXTakesItBackBeforeAnythingLeaves() async throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_HOLD_SECONDS"] = "60"
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        let session = try cli.terminal()
        defer { session.kill() }
        try session.waitFor(text: "Ana Horvat", timeout: 30)       // the list is read: space selects her
        try session.sendKeys("Space", "I")
        try session.waitFor(text: "Send 1 SMS invitation (", timeout: 10)
        try session.sendKeys("Enter")
        let counting = try session.waitUntil(timeout: 15, "the countdown") { $0.contains("1 invitation leaves in") }
        #expect(counting.contains("ctrl-x takes it back"), "\(counting)")
        try session.waitFor(text: "held 1 invitation, bulk ", timeout: 10)
        let held = try #require(try cli.ok(["bulks", "list", "--json"]).array().first as? [String: Any])
        let bulk = try #require(held["bulkId"] as? String)
        // The countdown moves by itself.
        let first = Self.seconds(counting)
        _ = try session.waitUntil(timeout: 5, "the countdown to move") { Self.seconds($0) != first }
        try session.sendKeys("C-x")
        try session.waitFor(text: "taken back: 1 invitation; nothing was sent", timeout: 10)
        _ = try session.waitUntil(timeout: 5, "the countdown to go") { !$0.contains("leaves in") }
        #expect(try Self.statuses(cli, bulk) == ["Cancelled"])
        #expect(((try? String(contentsOf: log, encoding: .utf8)) ?? "").isEmpty, "nothing reached the carrier")
        // With nothing held, the key says so.
        try session.sendKeys("C-x")
        try session.waitFor(text: "nothing to take back", timeout: 10)
    }

    @Test func tInTheConfirmationSchedulesTheSendForLater() async throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234570")])
        let session = try cli.terminal(width: 120)
        defer { session.kill() }
        try session.waitFor(text: "Ana Horvat", timeout: 30)
        try session.sendKeys("Space", "I")
        try session.waitFor(text: "When: now, after the undo window", timeout: 10)
        try session.sendKeys("t")
        try session.waitFor(text: "held until then", timeout: 10)
        try session.sendKeys("Enter")
        try session.waitFor(text: "held 1 invitation", timeout: 15)
        let listed = try #require(try cli.ok(["bulks", "list", "--json"]).array().first as? [String: Any])
        let at = try #require((listed["sendAt"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
        #expect(at.timeIntervalSinceNow > 3500 && at.timeIntervalSinceNow < 3700, "in an hour: \(listed)")
    }

    @Test func oOnAPersonOptsTheirNumbersOutAndAgainTakesThemOff() async throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234569")])
        let session = try cli.terminal(width: 120)
        defer { session.kill() }
        try session.waitFor(text: "Ana Horvat", timeout: 30)
        try session.sendKeys("O")
        try session.waitFor(text: "opted out 1 number", timeout: 10)
        let listed = try cli.ok(["optout", "list", "--json"]).array() as? [[String: Any]]
        #expect(listed?.compactMap { $0["number"] as? String } == ["+385911234569"])
        // A send from the screens leaves the number out, saying why.
        try session.sendKeys("Space", "I")
        try session.waitFor(text: "Send 1 SMS invitation (", timeout: 10)
        try session.sendKeys("Enter")
        try session.waitFor(text: "opted out on", timeout: 15)
        try session.sendKeys("1", "O")
        try session.waitFor(text: "taken off the opt-out list", timeout: 10)
        #expect(try cli.ok(["optout", "list", "--json"]).array().isEmpty)
    }

    @Test func deliveriesShowsAScheduledBulkWithItsTimeMovesItAndTakesItBack() async throws {
        let cli = try PlatformCLI()
        let sent = try cli.ok(["send", "--to", "+385911234568", "--at", "+2h", "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let session = try cli.terminal(width: 120)
        defer { session.kill() }
        try session.waitFor(text: "5 Deliveries", timeout: 30)
        try session.sendKeys("5")
        let shown = try session.waitFor(text: "held until ", timeout: 15)
        #expect(shown.contains("take back"), "the footer offers it on a held bulk: \(shown)")
        try session.sendKeys(":")
        try session.sendLiteral("move +3h")
        try session.sendKeys("Enter")
        try session.waitFor(text: "1 invitation now leaves at", timeout: 10)
        let listed = try #require(try cli.ok(["bulks", "list", "--json"]).array().first as? [String: Any])
        let moved = try #require((listed["sendAt"] as? String).flatMap { ISO8601DateFormatter.withFractions.date(from: $0) })
        #expect(moved.timeIntervalSinceNow > 2.5 * 3600, "moved to three hours from now: \(listed)")
        try session.sendKeys("C-x")
        try session.waitFor(text: "taken back: 1 invitation", timeout: 10)
        _ = try session.waitUntil(timeout: 10, "the row to leave the held state") { !$0.contains("held until") }
        #expect(try Self.statuses(cli, bulk) == ["Cancelled"])
    }
}

extension ISO8601DateFormatter {
    /// "2026-12-01T08:00:00.000Z".
    static var withFractions: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}
