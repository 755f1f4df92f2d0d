import Foundation
import Testing

/// The undo window and scheduled sends through the real `herald` on the embedded platform: a send waits
/// `hold_seconds` before anything leaves, ctrl-c (or `bulks cancel`) takes it back, `--at` holds it until then,
/// and a process killed during the hold leaves the bulk held for the next one, which sends it once.
@Suite(.serialized) struct CLISendHoldTests {
    /// The messageIds the simulated carrier was handed, one per line of the hand-over log.
    static func handOvers(_ log: URL) -> [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
    }

    static func statuses(_ cli: PlatformCLI, _ bulk: String) throws -> [String] {
        let status = try cli.ok(["status", bulk, "--json"]).object()
        return (status["deliveryInfo"] as? [[String: Any]] ?? []).compactMap { $0["deliveryStatus"] as? String }
    }

    @Test func aSendWaitsTheUndoWindowAndCtrlCTakesItBackForGood() throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_HOLD_SECONDS"] = "30"
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        let send = try cli.start(["send", "--to", mobile(1), mobile(2)])
        let lines = try send.waitForLines(timeout: 30, "the bulk line") { $0.contains { $0.hasPrefix("Bulk ") } }
        let bulk = try #require(lines.first { $0.hasPrefix("Bulk ") }?.split(separator: " ")[1].dropLast()).description
        let held = try send.waitForStderrLine(containing: "held until", timeout: 30)
        #expect(held.contains("ctrl-c takes it back"))
        #expect(try send.interrupt() == 130, "a send taken back does not end as a success: \(send.stderr)")
        #expect(send.stderr.contains("taken back: 2 invitations; nothing was sent"), "\(send.stderr)")
        #expect(try Self.statuses(cli, bulk) == ["Cancelled", "Cancelled"])
        #expect(Self.handOvers(log).isEmpty, "nothing reached the carrier")
        // Cancelled numbers may be invited again; --now leaves at once.
        cli.environment["HERALD_HOLD_SECONDS"] = "0"
        let again = try cli.ok(["send", "--now", "--to", mobile(1), "--json"]).object()
        #expect((again["recipients"] as? [[String: Any]])?.first?["status"] as? String != "Scheduled")
        #expect(again["sendAt"] is NSNull)
    }

    @Test func aSendTakenBackFromAnotherTerminalSaysSoAndStopsWaiting() throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_HOLD_SECONDS"] = "60"
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        let started = Date()
        let send = try cli.start(["send", "--to", mobile(11), mobile(12)])
        let lines = try send.waitForLines(timeout: 30, "the bulk line") { $0.contains { $0.hasPrefix("Bulk ") } }
        let bulk = try #require(lines.first { $0.hasPrefix("Bulk ") }?.split(separator: " ")[1].dropLast()).description
        _ = try send.waitForStderrLine(containing: "held until", timeout: 30)
        let cancelled = try cli.ok(["bulks", "cancel", bulk])
        #expect(cancelled.stdout.contains("taken back: 2 invitations; nothing was sent"), "\(cancelled)")
        // The first process notices, well before its window ends, and says what happened instead of "left at".
        try send.waitForStderr("taken back meanwhile", timeout: 30)
        send.process.waitUntilExit()   // bounded: the window ends in 60 s whatever happens
        #expect(send.process.terminationStatus == 1, "a send that sent nothing does not end as a success: \(send.stderr)")
        #expect(Date().timeIntervalSince(started) < 60, "it stopped waiting once the bulk was taken back")
        #expect(send.stderr.contains("bulk \(bulk) was taken back meanwhile (`herald bulks cancel`): 2 invitations, nothing was sent"),
                "\(send.stderr)")
        #expect(!send.stderr.contains("left at"), "\(send.stderr)")
        #expect(try Self.statuses(cli, bulk) == ["Cancelled", "Cancelled"])
        #expect(Self.handOvers(log).isEmpty, "nothing reached the carrier")
    }

    @Test func aSendLeftAloneLeavesWhenTheWindowEndsAndOnlyThen() throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_HOLD_SECONDS"] = "2"
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        let started = Date()
        let sent = try cli.ok(["send", "--to", mobile(3), "--json"]).object()
        #expect(Date().timeIntervalSince(started) >= 2, "the command waited out the window")
        let bulk = try #require(sent["bulkId"] as? String)
        #expect(sent["sendAt"] is String)
        #expect(Self.handOvers(log).count == 1)
        #expect(try Self.statuses(cli, bulk).allSatisfy { $0 != "Scheduled" && $0 != "Cancelled" })
    }

    @Test func aScheduledSendIsListedMovedAndTakenBack() throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        let run = try cli.ok(["send", "--to", mobile(4), mobile(5), "--at", "+2h", "--json"])
        #expect(run.stderr.contains("held until") && run.stderr.contains("herald bulks cancel"), "\(run.stderr)")
        let bulk = try #require(try run.object()["bulkId"] as? String)
        let listed = try #require(try cli.ok(["bulks", "list", "--json"]).array() as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["bulkId"] as? String == bulk && listed.first?["held"] as? Int == 2)
        let first = try #require(listed.first?["sendAt"] as? String)

        let moved = try cli.ok(["bulks", "move", bulk, "--at", "+3h"])
        #expect(moved.stdout.contains("2 invitations now leave at"), "\(moved)")
        let relisted = try #require(try cli.ok(["bulks", "list", "--json"]).array() as? [[String: Any]])
        #expect(relisted.first?["sendAt"] as? String != first)
        // Times that cannot be used are refused, naming the value; the bulk stays as it was.
        for (args, said) in [(["--at", "2099-01-01 09:00"], "more than 180 days ahead"), (["--at", "soonish"], "\"soonish\" is not a time"),
                             (["--at", "+1h", "--tz", "Mars/Olympus"], "\"Mars/Olympus\" is not a time zone")] {
            let refused = try cli.run(["bulks", "move", bulk] + args)
            #expect(refused.status == 1 && refused.stderr.contains(said), "\(refused)")
        }

        let cancelled = try cli.ok(["bulks", "cancel", bulk])
        #expect(cancelled.stdout.contains("taken back: 2 invitations; nothing was sent"), "\(cancelled)")
        #expect(try Self.statuses(cli, bulk) == ["Cancelled", "Cancelled"])
        #expect(try cli.ok(["bulks", "list"]).stdout.contains("No bulk is held"))
        let stale = try cli.run(["bulks", "move", bulk, "--at", "+1h"])
        #expect(stale.status == 1 && stale.stderr.contains("it was taken back"), "\(stale)")
        #expect(Self.handOvers(log).isEmpty)
    }

    @Test func badSendTimesSendNothing() throws {
        let cli = try PlatformCLI()
        for (args, said) in [(["--at", "2020-01-01 10:00"], "is in the past"), (["--at", "+200d"], "more than 180 days ahead"),
                             (["--at", "+2h", "--now"], "contradict"), (["--tz", "UTC"], "pass --at too")] {
            let refused = try cli.run(["send", "--to", mobile(6)] + args)
            #expect(refused.status == 1 && refused.stderr.contains(said), "\(refused)")
        }
        #expect(try cli.ok(["bulks", "list", "--json"]).array().isEmpty)
    }

    @Test func aProcessKilledDuringTheHoldLeavesTheBulkHeldAndTheNextProcessSendsItOnce() throws {
        let cli = try PlatformCLI()
        let log = cli.home.appendingPathComponent("handovers.log")
        cli.environment["HERALD_HOLD_SECONDS"] = "3"
        cli.environment["HERALD_CARRIER_LOG"] = log.path
        let send = try cli.start(["send", "--to", mobile(7), mobile(8)])
        let lines = try send.waitForLines(timeout: 30, "the bulk line") { $0.contains { $0.hasPrefix("Bulk ") } }
        let bulk = try #require(lines.first { $0.hasPrefix("Bulk ") }?.split(separator: " ")[1].dropLast()).description
        _ = try send.waitForStderrLine(containing: "held until", timeout: 30)
        kill(send.process.processIdentifier, SIGKILL)
        send.process.waitUntilExit()
        // Held in the data folder, not in the dead process.
        let held = try #require(try cli.ok(["bulks", "list", "--json"]).array() as? [[String: Any]])
        #expect(held.first?["bulkId"] as? String == bulk)
        #expect(try Self.statuses(cli, bulk) == ["Scheduled", "Scheduled"])
        #expect(Self.handOvers(log).isEmpty)
        Thread.sleep(forTimeInterval: 3.5)
        // The next process to read it after its time hands it over, once.
        #expect(try Self.statuses(cli, bulk).allSatisfy { $0 != "Scheduled" })
        _ = try cli.ok(["status", bulk])
        #expect(Self.handOvers(log).count == 2, "\(Self.handOvers(log))")
        #expect(Set(Self.handOvers(log)).count == 2)
    }
}

/// Opt-outs through the real `herald`: by hand, and by a reply that says stop; every send leaves them out, naming the
/// day; taken off the list, a number may be invited again.
@Suite(.serialized) struct CLIOptOutTests {
    @Test func optedOutNumbersAreLeftOutOfEverySendUntilTakenOff() throws {
        let cli = try PlatformCLI()
        let added = try cli.ok(["optout", "add", mobile(41)])
        #expect(added.stdout.contains("\(mobile(41)): opted out on 20"), "\(added)")
        let replied = try cli.ok(["sandbox", "reply", "--from", mobile(42), "--text", "STOP"])
        #expect(replied.stdout.contains("\(mobile(42)) opted out (reply: STOP)"), "\(replied)")
        let chatty = try cli.ok(["sandbox", "reply", "--from", mobile(43), "--text", "see you soon"])
        #expect(chatty.stdout.contains("does not say stop"))
        let listed = try #require(try cli.ok(["optout", "list", "--json"]).array() as? [[String: Any]])
        #expect(Set(listed.compactMap { $0["number"] as? String }) == [mobile(41), mobile(42)])

        let sent = try cli.ok(["send", "--to", mobile(41), mobile(42), mobile(43), "--json"]).object()
        let recipients = try #require(sent["recipients"] as? [[String: Any]])
        let refused = recipients.filter { $0["status"] as? String == "Rejected" }
        #expect(refused.count == 2 && refused.allSatisfy { ($0["reason"] as? String)?.hasPrefix("opted out on 20") == true }, "\(recipients)")
        let all = try cli.run(["send", "--to", mobile(41)])
        #expect(all.status == 1 && all.stderr.contains("opted out on"), "\(all)")

        #expect(try cli.ok(["optout", "remove", mobile(41)]).stdout.contains("taken off the list"))
        let again = try cli.ok(["send", "--to", mobile(41), "--json"]).object()
        #expect((again["recipients"] as? [[String: Any]])?.first?["status"] as? String != "Rejected")
        let missing = try cli.run(["optout", "remove", mobile(44)])
        #expect(missing.status == 1 && missing.stderr.contains("is not opted out"), "\(missing)")
        let bad = try cli.run(["optout", "add", "12"])
        #expect(bad.status == 1 && bad.stderr.contains("\"12\" cannot be opted out"), "\(bad)")
    }
}
