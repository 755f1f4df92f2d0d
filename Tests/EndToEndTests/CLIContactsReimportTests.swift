import Foundation
import Testing

/// `herald contacts import` of several paths at once (as a shell expands *.vcf), again, and again with a region: the
/// second import adds no one, the region re-reads the same person's number in place, and the summary names
/// `--region CC` while numbers wait for one.
@Suite struct CLIContactsReimportTests {
    @Test func severalPathsImportOnceAndAgainAddNoOne() throws {
        let box = try CLISandbox()
        let minimal = try box.write("cards/minimal.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:minimal contact\nEND:VCARD\n")
        let korean = try box.write("cards/korean-c.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:최유림\nEND:VCARD\n")
        _ = try box.write("more/john.vcf", "BEGIN:VCARD\nVERSION:3.0\nN:Doe;John;;;\nFN:John Doe\nTEL;TYPE=CELL:(212) 555-0143\nEND:VCARD\n")
        let more = box.root.appendingPathComponent("more")
        let env = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

        let first = try box.run(["contacts", "import", minimal.path, korean.path, more.path, "--data-dir", box.dataDir.path],
                                extraEnvironment: env)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("3 imported, 0 updated, 0 skipped"), "\(first)")
        #expect(first.stderr.contains("1 number has no country code"), "\(first)")
        #expect(first.stderr.contains("--region CC"), "\(first)")

        let again = try box.run(["contacts", "import", minimal.path, korean.path, more.path, "--json", "--data-dir", box.dataDir.path],
                                extraEnvironment: env).json()
        #expect(again["imported"] as? Int == 0)
        #expect(again["updated"] as? Int == 0)
        #expect(again["skipped"] as? Int == 3)

        let region = try box.run(["contacts", "import", more.path, "--region", "US", "--json", "--data-dir", box.dataDir.path],
                                 extraEnvironment: env).json()
        #expect(region["imported"] as? Int == 0)
        #expect(region["updated"] as? Int == 1)
        #expect(region["numbersNeedingRegion"] as? Int == 0)
        let listed = try box.contacts(["list", "--json"]).json()
        #expect(listed["count"] as? Int == 3)
        let shown = try box.contacts(["list", "--search", "Doe"]).stdout
        #expect(shown.components(separatedBy: "+12125550143").count == 2, "John's number once, read as a US number: \(shown)")

        // A path that cannot be read is named; the others still go in, and the exit status says something failed.
        let partly = try box.run(["contacts", "import", box.root.appendingPathComponent("nope.vcf").path, minimal.path,
                                  "--data-dir", box.dataDir.path], extraEnvironment: env)
        #expect(partly.status == 1)
        #expect(partly.stderr.contains("nope.vcf"), "\(partly)")
        #expect(partly.stdout.contains("0 imported, 0 updated, 1 skipped"), "\(partly)")
    }
}
