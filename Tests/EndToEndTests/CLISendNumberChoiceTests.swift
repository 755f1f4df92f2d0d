import Foundation
import Testing

/// `herald send` to an imported contact: the SMS goes to a number that can take one.
@Suite struct CLISendNumberChoiceTests {
    @Test func anImportedFaxNumberIsSkippedWithItsReasonAndTheMobileIsInvited() throws {
        let cli = try PlatformCLI()
        let vcf = cli.home.appendingPathComponent("office.vcf")
        try """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Horvat;Ana;;;\r
            FN:Ana Horvat\r
            TEL;TYPE=FAX,WORK:+385 1 4567 891\r
            TEL;TYPE=CELL:+385 91 234 5678\r
            TEL;TYPE=WORK,VOICE:+385 1 4567 890\r
            END:VCARD\r

            """.write(to: vcf, atomically: true, encoding: .utf8)
        try cli.ok(["contacts", "import", vcf.path, "--region", "HR"])
        let id = try #require(((try cli.ok(["contacts", "list", "--json"]).object())["contacts"] as? [[String: Any]])?.first?["id"] as? Int)
        let sent = try cli.ok(["send", "--to", String(id), "--json"]).object()
        let recipients = try #require(sent["recipients"] as? [[String: Any]])
        #expect(recipients.map { $0["address"] as? String } == ["+385912345678"])
        let skipped = try #require(sent["skipped"] as? [[String: Any]])
        let reasons = Dictionary(uniqueKeysWithValues: skipped.compactMap { s in
            (s["address"] as? String).map { ($0, s["reason"] as? String ?? "") }
        })
        #expect(reasons["+38514567891"] == "labelled work fax: a fax cannot receive SMS")
        #expect(reasons["+38514567890"]?.contains("cannot receive SMS") == true)
    }
}
