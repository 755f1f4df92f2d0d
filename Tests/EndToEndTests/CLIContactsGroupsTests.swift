import Foundation
import HeraldTestKit
import Testing

/// Groups and saved segments from the command line, on the real binary: `contacts tag`, `list --group`, `show`,
/// `segments save|list|delete`, `send --segment --dry-run`, and a vdir book whose categories khard reads back.
@Suite(.serialized) struct CLIContactsGroupsTests {
    private func ids(_ run: PlatformCLI.Run) throws -> [Int] {
        (try run.object()["contacts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    private func names(_ run: PlatformCLI.Run) throws -> [String] {
        (try run.object()["contacts"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func tagListAndSegmentsThenSendToASegment() throws {
        let cli = try PlatformCLI()
        let vcf = """
            BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana Horvat\r\nN:Horvat;Ana;;;\r\nTEL;TYPE=CELL:\(mobile(1))\r\nCATEGORIES:Zbor\r\nEND:VCARD\r
            BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo Kim\r\nN:Kim;Bo;;;\r\nTEL;TYPE=CELL:\(mobile(2))\r\nEND:VCARD\r
            BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cvita Perić\r\nN:Perić;Cvita;;;\r\nTEL;TYPE=CELL:\(mobile(3))\r\nEND:VCARD\r

            """
        let file = cli.home.appendingPathComponent("people.vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try cli.ok(["contacts", "import", file.path])
        let all = try ids(try cli.ok(["contacts", "list", "--json"]))
        #expect(all.count == 3)

        let tagged = try cli.ok(["contacts", "tag", String(all[1]), String(all[2]), "--add", "Trčanje", "--add", "Choir"])
        #expect(tagged.stdout.contains("tagged 2 contacts"), "\(tagged)")
        #expect(try names(try cli.ok(["contacts", "list", "--group", "TRCANJE", "--json"])) == ["Bo Kim", "Cvita Perić"])
        #expect(try names(try cli.ok(["contacts", "list", "--search", "group:zbor", "--json"])) == ["Ana Horvat"])
        let untag = try cli.ok(["contacts", "tag", String(all[2]), "--remove", "choir", "--json"]).array()
        #expect(((untag.first as? [String: Any])?["groups"] as? [String]) == ["Trčanje"])
        let shown = try cli.ok(["contacts", "show", String(all[1])]).stdout
        #expect(shown.contains("  groups: Choir, Trčanje"), "\(shown)")
        let empty = try cli.ok(["contacts", "list", "--group", "nobody"]).stdout
        #expect(empty.contains("No contacts in group \"nobody\""), "\(empty)")
        let refused = try cli.run(["contacts", "tag", String(all[0]), "--add", "x", "--remove", "X"])
        #expect(refused.status != 0 && refused.stderr.contains("both added and removed"), "\(refused)")
        let unknown = try cli.run(["contacts", "tag", "999", "--add", "x"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no person with id 999") && !unknown.crashed, "\(unknown)")

        let saved = try cli.ok(["contacts", "segments", "save", "runners", "--query", "group:trcanje -name:cvita"]).stdout
        #expect(saved.contains("saved segment runners: group:trcanje -name:cvita (1 contact now)"), "\(saved)")
        let loop = try cli.run(["contacts", "segments", "save", "loop", "--query", "segment:loop"])
        #expect(loop.status != 0 && loop.stderr.contains("segment loop uses itself (loop → loop)"), "\(loop)")
        let listed = try cli.ok(["contacts", "segments", "list", "--json"]).array() as? [[String: Any]] ?? []
        #expect(listed.map { $0["name"] as? String } == ["runners"] && listed.first?["contacts"] as? Int == 1, "\(listed)")
        #expect(try names(try cli.ok(["contacts", "list", "--segment", "runners", "--json"])) == ["Bo Kim"])

        // The segment follows the book: Ana joins the group and is sent to as well.
        try cli.ok(["contacts", "tag", String(all[0]), "--add", "trčanje"])
        let dry = try cli.ok(["send", "--segment", "runners", "--dry-run", "--json"]).object()
        #expect((dry["recipients"] as? [[String: Any]])?.compactMap { $0["address"] as? String } == [mobile(1), mobile(2)], "\(dry)")
        let withTo = try cli.ok(["send", "--segment", "runners", "--to", String(all[1]), mobile(9), "--dry-run", "--json"]).object()
        #expect((withTo["recipients"] as? [[String: Any]])?.compactMap { $0["address"] as? String }.sorted()
                    == [mobile(1), mobile(2), mobile(9)], "\(withTo)")
        let badSegment = try cli.run(["send", "--segment", "walkers", "--dry-run"])
        #expect(badSegment.status != 0 && badSegment.stderr.contains("--segment: segment:walkers is not a saved segment: use segment:runners"),
                "\(badSegment)")

        try cli.ok(["contacts", "segments", "delete", "RUNNERS"])
        let gone = try cli.run(["contacts", "segments", "delete", "runners"])
        #expect(gone.status != 0 && gone.stderr.contains("no segment named runners"), "\(gone)")
        #expect(try cli.ok(["contacts", "segments", "list"]).stdout.contains("No segments saved"))
    }

    @Test func groupsTaggedInHeraldAreTheCategoriesKhardShows() throws {
        let box = try CLISandbox()
        let folder = box.root.appendingPathComponent("home/contacts/personal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\nVERSION:3.0\nUID:ana-1\nFN:Ana Horvat\nN:Horvat;Ana;;;\nTEL;TYPE=cell:+385911111111\n"
            + "X-KHARD-NICK:ana\nCATEGORIES:friends\nEND:VCARD\n"
        try Data(card.utf8).write(to: folder.appendingPathComponent("ana-1.vcf"))
        try box.write("config/herald/config.toml", """
            region = "HR"
            [[books]]
            name = "personal"
            kind = "vdir"
            path = "~/contacts/personal"
            """)
        let sync = try box.contacts(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let list = try box.contacts(["list", "--group", "FRIENDS", "--json"])
        let id = try #require((try list.json()["contacts"] as? [[String: Any]])?.first?["id"] as? Int, "\(list.stdout)")
        let tag = try box.contacts(["tag", String(id), "--add", "Running, Club", "--add", "Zbor"])
        #expect(tag.status == 0, "\(tag.stderr)")
        let written = try String(contentsOf: folder.appendingPathComponent("ana-1.vcf"), encoding: .utf8)
        #expect(written.contains("CATEGORIES:friends,Running\\, Club,Zbor\n") && written.contains("X-KHARD-NICK:ana\n"), "\(written)")

        let shown = try CLIContactsBooksTests.khard(box, folder, ["show", "Ana"])
        #expect(shown.contains("- friends") && shown.contains("- Running, Club") && shown.contains("- Zbor"), "\(shown)")

        // khard's own edit of the categories comes back to Herald at the next sync.
        try Data(written.replacingOccurrences(of: "CATEGORIES:friends,Running\\, Club,Zbor", with: "CATEGORIES:Zbor").utf8)
            .write(to: folder.appendingPathComponent("ana-1.vcf"))
        #expect(try box.contacts(["sync"]).status == 0)
        let after = try box.contacts(["show", String(id), "--json"]).json()
        #expect(after["groups"] as? [String] == ["Zbor"], "\(after)")
    }
}
