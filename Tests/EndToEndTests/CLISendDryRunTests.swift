import Foundation
import Testing

/// `herald send --dry-run` prints what a send would do by the send's own rules (texts with the names filled in, SMS
/// parts, one SMS per person, who is skipped) and sends nothing: the same send afterwards goes out as if no dry run
/// had been made.
@Suite struct CLISendDryRunTests {
    @Test func aDryRunShowsTheTextsAndSkipsAndSendsNothing() throws {
        let cli = try PlatformCLI()
        let vcf = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Horvat;Zoë;;;\r\nFN:Zoë Horvat\r\nTEL;TYPE=CELL:091 444 4444\r\n"
            + "TEL;TYPE=CELL:098 555 5555\r\nEND:VCARD\r\n"
        let file = cli.home.appendingPathComponent("zoe.vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try cli.ok(["contacts", "import", file.path, "--region", "HR"])
        let id = try #require(((try cli.ok(["contacts", "list", "--json"]).object()["contacts"] as? [[String: Any]])?.first)?["id"] as? Int)

        let dry = try cli.ok(["send", "--to", String(id), mobile(71), "--dry-run", "--json"]).object()
        #expect(dry["dryRun"] as? Bool == true)
        let recipients = dry["recipients"] as? [[String: Any]] ?? []
        #expect(recipients.map { $0["address"] as? String } == ["+385914444444", mobile(71)])
        let zoe = try #require(recipients.first?["text"] as? String)
        #expect(zoe.hasPrefix("Hi Zoë Horvat, Ana invites you to Herald: https://"), "\(zoe)")
        #expect(recipients.allSatisfy { ($0["segments"] as? Int ?? 0) >= 1 })
        #expect((dry["skipped"] as? [[String: Any]])?.first?["reason"] as? String
                    == "one SMS per person: +385914444444 is invited ([invite] numbers = \"all-mobiles\" sends to each)")
        let human = try cli.ok(["send", "--to", mobile(71), "--dry-run"]).stdout
        #expect(human.contains("Dry run: nothing was sent."), "\(human)")
        #expect(human.contains("1 SMS invitation ("), "\(human)")

        // Nothing was sent or recorded: the real send goes to both, neither is "already on its way".
        let sent = try cli.ok(["send", "--to", String(id), mobile(71), "--json"]).object()
        #expect((sent["recipients"] as? [[String: Any]])?.count == 2)
        // And now a dry run says the number's invitation is on its way.
        let again = try cli.ok(["send", "--to", mobile(71), "--dry-run", "--json"]).object()
        #expect((again["recipients"] as? [Any])?.isEmpty == true)
        #expect(((again["skipped"] as? [[String: Any]])?.first?["reason"] as? String)?.contains("already") == true, "\(again)")
    }
    /// The `--region CC` a send's refusal tells people to pass is one `send` takes.
    @Test func sendTakesTheRegionItsAdviceNames() throws {
        let cli = try PlatformCLI()
        let without = try cli.ok(["send", "--to", "(212) 555-0143", "--dry-run", "--json"], env: ["LANG": "C.UTF-8"]).object()
        #expect(((without["skipped"] as? [[String: Any]])?.first?["reason"] as? String)?.contains("--region CC") == true, "\(without)")
        let with = try cli.ok(["send", "--to", "(212) 555-0143", "--region", "US", "--dry-run", "--json"]).object()
        #expect((with["recipients"] as? [[String: Any]])?.map { $0["address"] as? String } == ["+12125550143"], "\(with)")
    }
}
