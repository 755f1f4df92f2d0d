import Foundation
import Testing

/// Email invitations through the real `herald` on the embedded platform, handed to a real mail program (a script in
/// place of `sendmail -t` that files each message it is given): recorded in the ledger as an SMS is, shown by
/// `status`, sent at most once, and an uncertain hand-over sent again only with --resend.
@Suite(.serialized) struct CLIShareEmailTests {
    /// A workspace whose mail program files every message into `mailbox`, and contacts with an email address (Sam,
    /// whose mail never finishes, only when `slow`).
    static func workspace(slow: Bool = false) throws -> (cli: PlatformCLI, mailbox: URL, ids: [String: Int]) {
        let cli = try PlatformCLI()
        let mailbox = cli.home.appendingPathComponent("mailbox")
        let program = cli.home.appendingPathComponent("fake-sendmail")
        // Killed by its own hand when the message is for kill@…: it may have taken it, as a mailer killed mid-way may.
        // For slow@… it never finishes (its pid in the file `slow.pid`), as a mailer stuck on a slow relay.
        try """
            #!/bin/sh
            message=$(cat)
            printf '%s\\n%s\\n' "$message" '\(Self.end)' >> '\(mailbox.path)'
            case "$message" in *"To: kill@"*) kill -9 $$;; esac
            case "$message" in *"To: slow@"*) echo $$ > '\(cli.home.appendingPathComponent("slow.pid").path)'; exec sleep 600;; esac
            exit 0
            """.write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let config = cli.home.appendingPathComponent("config/herald/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[share]\nemail_from = \"Ana Horvat <ana@example.com>\"\nemail_command = \"\(program.path) -t\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let people = [("Ivo", "ivo@example.org"), ("Mia", "kill@example.org"), ("Lea", "")] + (slow ? [("Sam", "slow@example.org")] : [])
        let vcf = people.map { name, email in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Test;\(name);;;\r\nFN:\(name) Test\r\n"
                + (email.isEmpty ? "TEL;TYPE=CELL:\(mobile(9))\r\n" : "EMAIL:\(email)\r\n") + "END:VCARD\r\n"
        }.joined()
        let file = cli.home.appendingPathComponent("people.vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try cli.ok(["contacts", "import", file.path, "--region", "HR"])
        var ids: [String: Int] = [:]
        for c in try cli.ok(["contacts", "list", "--json"]).object()["contacts"] as? [[String: Any]] ?? [] {
            if let name = c["name"] as? String, let id = c["id"] as? Int { ids[name] = id }
        }
        return (cli, mailbox, ids)
    }

    /// What the mail program writes after each message.
    static let end = "--- end of message ---"

    /// The messages the mail program was handed, in order.
    static func messages(_ mailbox: URL) -> [String] {
        ((try? String(contentsOf: mailbox, encoding: .utf8)) ?? "").components(separatedBy: end + "\n").dropLast()
    }

    @Test func anEmailInvitationIsInTheLedgerSentOnceAndShownByStatusAndWatch() throws {
        let (cli, mailbox, ids) = try Self.workspace()
        let ivo = try #require(ids["Ivo Test"]), lea = try #require(ids["Lea Test"])
        let watch = try cli.start(["watch"])
        try watch.waitForStderr("watching deliveries", timeout: 30)
        let sent = try cli.ok(["share", "email", "--to", String(ivo), String(lea), "--subject", "Dođi na Herald",
                               "--text", "Bok {RECEIVER_NAME}, pridruži mi se: <>", "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let recipients = try #require(sent["recipients"] as? [[String: Any]])
        #expect(recipients.count == 1 && recipients.first?["address"] as? String == "ivo@example.org", "\(sent)")
        let messageId = try #require(recipients.first?["messageId"] as? String)
        #expect((sent["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "has no email address (invite by SMS instead)")
        let mail = Self.messages(mailbox)
        #expect(mail.count == 1, "one message handed over")
        let text = try #require(mail.first)
        #expect(text.contains("\nMessage-ID: <\(messageId)@example.com>\n"), "the Message-ID is the platform's messageId: \(text)")
        #expect(text.contains("From: Ana Horvat <ana@example.com>\n"), "\(text)")
        #expect(text.contains("To: ivo@example.org"))
        #expect(text.contains("Subject: =?UTF-8?B?RG/EkWkgbmEgSGVyYWxk?="), "a non-ASCII subject is encoded: \(text)")
        #expect(text.contains("Bok Ivo Test, pridru=C5=BEi mi se: https://"), "\(text)")

        // The ledger has it: status names it sent.
        let status = try cli.ok(["status", bulk])
        #expect(status.stdout.contains("ivo@example.org") && status.stdout.contains("sent"), "\(status)")
        let json = try cli.ok(["status", bulk, "--json"]).object()
        #expect((json["deliveryInfo"] as? [[String: Any]])?.first?["deliveryStatus"] as? String == "DeliveredToNetwork")
        // watch tells of it as it goes, in the same words.
        let watched = try watch.waitForLines(timeout: 30, "the email's change") { $0.contains { $0.contains("ivo@example.org") && $0.hasSuffix("→ sent") } }
        #expect(watched.contains { $0.contains(bulk) && $0.contains("Ivo Test") }, "\(watched)")
        #expect(try watch.interrupt() == 0)

        // Never twice by accident: a second send skips him, and nothing more is handed over.
        let again = try cli.run(["share", "email", "--to", String(ivo), "--json"])
        #expect(again.status != 0)
        #expect(again.stdout.contains("already invited (sent)") && again.stderr.contains("every recipient was skipped"), "\(again)")
        #expect(Self.messages(mailbox).count == 1)
    }

    @Test func aHandOverWhoseMailerDiesIsUncertainAndSentAgainOnlyWithResend() throws {
        let (cli, mailbox, ids) = try Self.workspace()
        let mia = try #require(ids["Mia Test"])
        let sent = try cli.ok(["share", "email", "--to", String(mia), "--json"]).object()
        let bulk = try #require(sent["bulkId"] as? String)
        let first = try #require((sent["recipients"] as? [[String: Any]])?.first)
        #expect(first["status"] as? String == "DeliveryUncertain", "\(sent)")
        #expect((first["reason"] as? String)?.contains("it may have been sent; it is sent again only when you resend it") == true, "\(first)")
        #expect(Self.messages(mailbox).count == 1)
        let status = try cli.ok(["status", bulk])
        #expect(status.stdout.contains("uncertain"), "\(status)")

        // Not again on its own: neither the next send nor the next process hands it over.
        let skipped = try cli.run(["share", "email", "--to", String(mia), "--json"])
        #expect(skipped.status != 0 && skipped.stdout.contains("already invited (uncertain)"), "\(skipped)")
        #expect(Self.messages(mailbox).count == 1)
        // --resend says so and sends it.
        let resent = try cli.ok(["share", "email", "--to", String(mia), "--resend", "--json"]).object()
        #expect(resent["bulkId"] as? String != bulk)
        #expect(Self.messages(mailbox).count == 2)
    }

    /// Herald killed while the mail program has the message: the next process cannot know whether it left, so once the
    /// hand-over's lease (60 s) has run out the email is uncertain, and it is never handed over again on its own.
    @Test func heraldKilledDuringTheHandOverLeavesTheEmailUncertainNeverSentTwice() throws {
        let (cli, mailbox, ids) = try Self.workspace(slow: true)
        let sam = try #require(ids["Sam Test"])
        let send = try cli.start(["share", "email", "--to", String(sam)])
        let deadline = Date().addingTimeInterval(30)
        while Self.messages(mailbox).isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(Self.messages(mailbox).count == 1, "the mail program has it")
        kill(send.process.processIdentifier, SIGKILL)
        send.process.waitUntilExit()
        if let pid = try? String(contentsOf: cli.home.appendingPathComponent("slow.pid"), encoding: .utf8),
           let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) {
            kill(number, SIGKILL)
        }
        // The next process completes the interrupted send with the platform: the hand-over is still in its lease, so
        // the email is on its way and Sam is not emailed again.
        let again = try cli.run(["share", "email", "--to", String(sam), "--json"])
        let answer = try again.object()
        let bulk = try #require(((answer["reconciled"] as? [String: Any])?["bulkIds"] as? [String])?.first, "\(again)")
        #expect((answer["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "an invitation is already on its way (waiting)",
                "\(again)")
        Thread.sleep(forTimeInterval: 61)
        let status = try cli.ok(["status", bulk, "--json"]).object()
        let info = try #require((status["deliveryInfo"] as? [[String: Any]])?.first)
        #expect(info["deliveryStatus"] as? String == "DeliveryUncertain", "\(info)")
        #expect((info["error"] as? String)?.contains("the mail hand-over was interrupted") == true, "\(info)")
        #expect(Self.messages(mailbox).count == 1, "never handed over twice")
    }
}
