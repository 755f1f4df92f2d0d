import Foundation
import HeraldTestKit
import Testing

/// `herald replies …` as a user runs it: replies received by `herald sandbox reply` (another process each time) listed
/// with their unread counts and the address book's names, a thread shown oldest first, an answer sent through the
/// ledger (the sender warning, the segment count, the undo window), seen marks, `herald watch --json` telling of a reply,
/// and read-only mode refusing what changes something.
@Suite(.serialized) struct CLIRepliesTests {
    static func decode(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// A workspace with Ana in the book, an invitation to her, and replies from her and from a number nobody has.
    func conversations() throws -> PlatformCLI {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([(first: "Ana", last: "Horvat", phone: mobile(1))])
        try cli.ok(["send", "--to", mobile(1), "--json"])
        let kept = try cli.ok(["sandbox", "reply", "--from", mobile(1), "--text", "yes, see you there"])
        #expect(kept.stdout.contains("reply kept") && kept.stdout.contains("herald replies show \(mobile(1))"), "\(kept)")
        try cli.ok(["sandbox", "reply", "--from", mobile(2), "--text", "who is this?\u{1B}[31m"])
        return cli
    }

    @Test func listShowsConversationsNewestFirstWithNamesAndUnreadCounts() throws {
        let cli = try conversations()
        let list = try cli.ok(["replies", "list", "--json"]).object()
        #expect(Set(list.keys) == ["conversations", "unreadTotal", "hasMore"])
        #expect(list["unreadTotal"] as? Int == 2 && list["hasMore"] as? Bool == false)
        let rows = try #require(list["conversations"] as? [[String: Any]])
        #expect(rows.map { $0["number"] as? String } == [mobile(2), mobile(1)])
        for row in rows {
            #expect(Set(row.keys) == ["number", "personId", "name", "lastAt", "lastText", "lastIsReply", "unread", "replies"])
            #expect(row["unread"] as? Int == 1 && row["replies"] as? Int == 1 && row["lastIsReply"] as? Bool == true)
            #expect(ISO8601DateFormatter.withMilliseconds.date(from: row["lastAt"] as? String ?? "") != nil)
        }
        #expect(rows[0]["name"] is NSNull && rows[0]["personId"] is NSNull)
        #expect(rows[1]["name"] as? String == "Ana Horvat" && rows[1]["personId"] is Int)

        let human = try cli.ok(["replies", "list"])
        #expect(human.stdout.contains("2 conversations, 2 unread replies"))
        #expect(human.stdout.contains("Ana Horvat") && human.stdout.contains("(unknown)"))
        #expect(!human.stdout.contains("\u{1B}"), "a stranger's escape sequence never reaches the terminal")

        let ana = try cli.ok(["replies", "list", "--from", mobile(1), "--json"]).object()
        #expect((ana["conversations"] as? [[String: Any]])?.map { $0["number"] as? String } == [mobile(1)])
        let bad = try cli.run(["replies", "list", "--from", "nobody"])
        #expect(bad.status == 1 && bad.stderr.contains("is not a phone number") && !bad.crashed, "\(bad)")
    }

    @Test func showPrintsTheThreadOldestFirstAndMarksNothingUnlessAsked() throws {
        let cli = try conversations()
        let thread = try cli.ok(["replies", "show", mobile(1), "--json"]).object()
        #expect(Set(thread.keys) == ["number", "personId", "name", "unread", "hasMore", "entries"])
        #expect(thread["name"] as? String == "Ana Horvat" && thread["unread"] as? Int == 1)
        let entries = try #require(thread["entries"] as? [[String: Any]])
        #expect(entries.map { $0["kind"] as? String } == ["sent", "reply"])
        #expect(Set(entries[0].keys) == ["kind", "messageId", "at", "text", "status", "bulkId", "seen"])
        #expect(entries[0]["status"] is String && entries[1]["status"] is NSNull)
        #expect(entries[1]["text"] as? String == "yes, see you there" && entries[1]["seen"] as? Bool == false)
        #expect(entries[1]["bulkId"] as? String == entries[0]["bulkId"] as? String, "the reply answers that invitation")

        // A national number is read in the config's region.
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent("config/herald"), withIntermediateDirectories: true)
        try "region = \"HR\"\n".write(to: cli.home.appendingPathComponent("config/herald/config.toml"), atomically: true, encoding: .utf8)
        let human = try cli.ok(["replies", "show", "091 100 0001"])
        #expect(human.stdout.contains("Conversation with Ana Horvat (\(mobile(1))): 2 messages, 1 unread"), "\(human)")
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last?.contains("← • yes, see you there") == true, "\(human)")
        #expect(try cli.ok(["replies", "list", "--json"]).object()["unreadTotal"] as? Int == 2, "show marked nothing")

        let marked = try cli.ok(["replies", "show", mobile(1), "--mark-seen"])
        #expect(marked.stderr.contains("1 reply marked seen"), "\(marked)")
        #expect(try cli.ok(["replies", "list", "--json"]).object()["unreadTotal"] as? Int == 1)
        let stranger = try cli.ok(["replies", "show", mobile(2)])
        #expect(stranger.stdout.contains("the number is in nobody's card") && !stranger.stdout.contains("\u{1B}"))
    }

    @Test func sendAnswersThroughTheLedgerWithTheSenderWarningAndTheUndoWindow() throws {
        let cli = try conversations()
        // Not at a terminal, an answer needs --yes.
        let asked = try cli.run(["replies", "send", mobile(1), "--text", "See you at 8"])
        #expect(asked.status == 1 && asked.stderr.contains("pass --yes") && asked.stderr.contains("nothing was sent"), "\(asked)")

        let text = "See you at 8, Ana — bring a friend"
        let sent = try cli.ok(["replies", "send", mobile(1), "--text", text, "--yes"], env: ["HERALD_HOLD_SECONDS": "1"])
        #expect(sent.stdout.contains("Answer to Ana Horvat (\(mobile(1))) from Herald (alphanumeric)"), "\(sent)")
        #expect(sent.stdout.contains("34 characters, 1 SMS segment (UCS-2)"), "\(sent)")
        #expect(sent.stderr.contains("alphanumeric: people cannot reply to it"), "\(sent)")
        #expect(sent.stderr.contains("held until") && sent.stderr.contains("left at"), "the undo window was waited out: \(sent)")

        let entries = try #require(try cli.ok(["replies", "show", mobile(1), "--json"]).object()["entries"] as? [[String: Any]])
        #expect(entries.map { $0["kind"] as? String } == ["sent", "reply", "sent"])
        #expect(entries.last?["text"] as? String == text && entries.last?["status"] is String)
        // In the ledger as every invitation is: `herald status` follows its bulk.
        let bulk = try #require(entries.last?["bulkId"] as? String)
        let status = try cli.ok(["status", bulk, "--json"])
        #expect(status.stdout.contains(String(mobile(1).dropFirst())) || status.stdout.contains(mobile(1)), "\(status)")

        // A numeric sender draws no warning.
        try FileManager.default.createDirectory(at: cli.home.appendingPathComponent("config/herald"), withIntermediateDirectories: true)
        try "sender = \"+385911234567\"\n".write(to: cli.home.appendingPathComponent("config/herald/config.toml"), atomically: true, encoding: .utf8)
        let numeric = try cli.ok(["replies", "send", mobile(2), "--text", "Ana's party", "--yes", "--json"])
        let numericBulk = try numeric.object()["bulkId"] as? String
        #expect(!numeric.stderr.contains("alphanumeric") && numericBulk != nil, "\(numeric)")

        let empty = try cli.run(["replies", "send", mobile(1), "--text", "  ", "--yes"])
        #expect(empty.status == 1 && empty.stderr.contains("--text is empty"), "\(empty)")
    }

    @Test func seenMarksNumbersOrEverything() throws {
        let cli = try conversations()
        try cli.ok(["sandbox", "reply", "--from", mobile(3), "--text", "hi"])
        let one = try cli.ok(["replies", "seen", mobile(2)])
        #expect(one.stdout.contains("1 reply marked seen"), "\(one)")
        let none = try cli.ok(["replies", "seen", mobile(2)])
        #expect(none.stdout.contains("0 replies marked seen") && none.stderr.contains("nothing unread"), "\(none)")
        let all = try cli.ok(["replies", "seen", "--all"])
        #expect(all.stdout.contains("2 replies marked seen in 2 conversations"), "\(all)")
        let list = try cli.ok(["replies", "list", "--unread", "--json"]).object()
        #expect(list["unreadTotal"] as? Int == 0 && (list["conversations"] as? [Any])?.isEmpty == true)
        let both = try cli.run(["replies", "seen", mobile(1), "--all"])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both)")
    }

    @Test func watchJSONTellsOfAReplyFromAnotherProcess() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([(first: "Ana", last: "Horvat", phone: mobile(1))])
        let watch = try cli.start(["watch", "--json"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        try cli.ok(["sandbox", "reply", "--from", mobile(1), "--text", "yes, see you there"])
        let lines = try watch.waitForLines(timeout: 30, "a reply event") { lines in
            lines.contains { Self.decode($0)?["event"] as? String == "reply" }
        }
        let reply = try #require(lines.compactMap(Self.decode).first { $0["event"] as? String == "reply" })
        #expect(Set(reply.keys) == ["event", "number", "name", "messageId", "text", "at", "optedOut", "unreadTotal"])
        #expect(reply["number"] as? String == mobile(1) && reply["name"] as? String == "Ana Horvat")
        #expect(reply["text"] as? String == "yes, see you there" && reply["unreadTotal"] as? Int == 1)
        #expect(reply["optedOut"] as? Bool == false && (reply["messageId"] as? String)?.isEmpty == false)

        try cli.ok(["replies", "seen", mobile(1)])
        try watch.waitForLines(timeout: 30, "a replies-seen event") { lines in
            lines.contains { Self.decode($0)?["event"] as? String == "replies-seen" && Self.decode($0)?["unreadTotal"] as? Int == 0 }
        }
        #expect(try watch.interrupt() == 0)
    }

    /// Two watchers with --notify on one data folder: a reply from another process is one notice, through the
    /// `[notify] command`, titled with the name the book gives the number.
    @Test func aReplyIsOneNoticeWhateverTheNumberOfWatchers() throws {
        let cli = try PlatformCLI()
        let callsFile = try CLIWatchNotifyTests.setUp(cli, notify: "")
        _ = try cli.importContacts([(first: "Ana", last: "Horvat", phone: mobile(1))])
        let first = try cli.start(["watch", "--notify", "--json"])
        let second = try cli.start(["watch", "--notify", "--json"])
        try first.waitForStderr("watching deliveries", timeout: 30)
        try second.waitForStderr("watching deliveries", timeout: 30)
        try cli.ok(["sandbox", "reply", "--from", mobile(1), "--text", "yes, see you there\nand a friend"])
        let deadline = Date().addingTimeInterval(30)
        while !CLIWatchNotifyTests.calls(callsFile).contains(where: { $0.count > 1 && $0[1] == "reply from Ana Horvat" })
                && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 1.5)           // time for a second notice, were one to come
        let calls = CLIWatchNotifyTests.calls(callsFile).filter { $0.count > 1 && $0[1].hasPrefix("reply from") }
        #expect(calls.map { $0.dropFirst() } == [["reply from Ana Horvat", "yes, see you there"]], "\(calls)")
        let printed = try first.waitForLines(timeout: 5, "what it printed") { _ in true }
            + second.waitForLines(timeout: 5, "what it printed") { _ in true }
        let notices = printed.compactMap(Self.decode).filter { $0["notice"] as? String == "reply" }
        #expect(notices.count == 1 && (notices.first?["subject"] as? String)?.hasPrefix(mobile(1) + "/") == true, "\(printed)")
        #expect(printed.compactMap(Self.decode).filter { $0["event"] as? String == "reply" }.count == 2, "each watcher prints the reply")
        #expect(try first.interrupt() == 0)
        #expect(try second.interrupt() == 0)
    }

    @Test func readOnlyModeRefusesSendAndSeenButReads() throws {
        let cli = try conversations()
        for (args, change) in [(["replies", "send", mobile(1), "--text", "hi", "--yes"], "answer replies"),
                               (["replies", "seen", "--all"], "mark replies seen"),
                               (["replies", "show", mobile(1), "--mark-seen"], "mark replies seen")] {
            let refused = try cli.run(["--read-only"] + args)
            #expect(refused.status != 0 && refused.stderr.contains("read-only mode") && refused.stderr.contains(change), "\(args): \(refused)")
        }
        #expect(try cli.run(["--read-only", "replies", "list"]).status == 0)
        #expect(try cli.run(["--read-only", "replies", "show", mobile(1)]).status == 0)
        #expect(try cli.ok(["replies", "list", "--json"]).object()["unreadTotal"] as? Int == 2, "nothing was marked")
        let thread = try cli.ok(["replies", "show", mobile(1), "--json"]).object()
        #expect((thread["entries"] as? [Any])?.count == 2, "nothing was sent")
    }
}
