import Foundation
import HeraldTestKit
import Testing

/// Custom fields through the real binary: imported from CSV columns with each cut told by file and line, shown by
/// `contacts show` (text and JSON), set and removed with `--field` and `--remove-field`, carried by the card, and
/// written to a vdir card's own X- line that khard shows and edits back.
@Suite struct CLIContactsFieldsTests {
    @Test func importedColumnsAreShownAndSetAndRemovedFromTheCommandLine() throws {
        let box = try CLISandbox()
        let csv = try box.write("club.csv", """
            First Name,Last Name,Mobile Phone,Shirt size,Team,Receiver name
            Ana,Horvat,+385911111111,M,Blue,x
            Bo,Kim,+385912222222,,,

            """)
        let imported = try box.contacts(["import", csv.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("club.csv:1") && imported.stderr.contains("{RECEIVER_NAME}, a field Herald fills itself"),
                "\(imported.stdout)\(imported.stderr)")
        let shown = try box.contacts(["show", "1"])
        #expect(shown.stdout.contains("  fields (a message uses each as {NAME}):\n    SHIRT_SIZE: M\n    TEAM: Blue\n"), "\(shown.stdout)")
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String] == ["SHIRT_SIZE": "M", "TEAM": "Blue"])
        #expect(try box.contacts(["show", "2", "--json"]).json()["fields"] as? [String: String] == [:])

        let edited = try box.contacts(["edit", "1", "--field", "shirt size=L", "--field", "Dietary needs=vegan", "--remove-field", "team"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String]
                == ["SHIRT_SIZE": "L", "DIETARY_NEEDS": "vegan"])
        // Each bad one names its option, and nothing changes.
        let reserved = try box.contacts(["edit", "1", "--field", "First name=Anica"])
        #expect(reserved.status == 1 && reserved.stderr.contains("--field: \"First name\" would be {FIRST_NAME}, a field Herald fills itself"),
                "\(reserved.stderr)")
        let noValue = try box.contacts(["edit", "1", "--field", "Team"])
        #expect(noValue.status == 1 && noValue.stderr.contains("write NAME=VALUE"), "\(noValue.stderr)")
        let notThere = try box.contacts(["edit", "1", "--remove-field", "TEAM"])
        #expect(notThere.status == 1 && notThere.stderr.contains("TEAM is not one of this contact's fields (DIETARY_NEEDS, SHIRT_SIZE)"),
                "\(notThere.stderr)")
        let long = try box.contacts(["edit", "1", "--field", "Bio=" + String(repeating: "x", count: 1_001)])
        #expect(long.status == 1 && long.stderr.contains("is 1001 characters long; at most 1000"), "\(long.stderr)")
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String]
                == ["SHIRT_SIZE": "L", "DIETARY_NEEDS": "vegan"])

        let added = try box.contacts(["add", "Ivo Babić", "--phone", "+385913333333", "--field", "Team=Red", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try added.json()["fields"] as? [String: String] == ["TEAM": "Red"])

        // The card carries them: printed, edited as text, read back.
        let card = try box.contacts(["edit", "1", "--print-card"]).stdout
        #expect(card.contains("Field: DIETARY_NEEDS: vegan\nField: SHIRT_SIZE: L\n"), "\(card)")
        let changed = try box.write("card.txt", card.replacingOccurrences(of: "Field: DIETARY_NEEDS: vegan\n", with: "Field: Bib: 42\n"))
        let fromCard = try box.contacts(["edit", "1", "--card", changed.path])
        #expect(fromCard.status == 0, "\(fromCard.stderr)")
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String] == ["SHIRT_SIZE": "L", "BIB": "42"])
    }

    @Test func aFieldSetInHeraldIsTheXLineKhardShowsAndKhardsEditComesBack() throws {
        let box = try CLISandbox()
        let folder = box.root.appendingPathComponent("home/contacts/personal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\nVERSION:3.0\nUID:ana-1\nFN:Ana Horvat\nN:Horvat;Ana;;;\nTEL;TYPE=cell:+385911111111\n"
            + "X-KHARD-NICK:ana\nX-TEAM:Blue\nX-SHIRT-SIZE:M\nEND:VCARD\n"
        let file = folder.appendingPathComponent("ana-1.vcf")
        try Data(card.utf8).write(to: file)
        try box.write("config/herald/config.toml", """
            region = "HR"
            [[books]]
            name = "personal"
            kind = "vdir"
            path = "~/contacts/personal"
            """)
        #expect(try box.contacts(["sync"]).status == 0)
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String] == ["TEAM": "Blue", "SHIRT_SIZE": "M"])

        let edit = try box.contacts(["edit", "1", "--field", "Shirt size=L", "--field", "City=Zagreb"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let written = try String(contentsOf: file, encoding: .utf8)
        // Changed in place, added before END; khard's own line and the untouched field byte for byte.
        #expect(written.contains("X-KHARD-NICK:ana\nX-TEAM:Blue\nX-SHIRT-SIZE:L\nX-CITY:Zagreb\nEND:VCARD\n"), "\(written)")

        let config = try box.write("khard-fields.conf", """
            [addressbooks]
            [[personal]]
            path = \(folder.path)
            [vcard]
            private_objects = Shirt-Size, Team, City
            """)
        let shown = try ProgramRun("/usr/bin/khard", ["-c", config.path, "show", "Ana"], environment: box.environment, withErrors: false)
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("Shirt-Size: L") && shown.output.contains("Team: Blue") && shown.output.contains("City: Zagreb"),
                "\(shown.output)")

        // khard's (or any program's) edit of the X- line comes back at the next sync.
        try Data(written.replacingOccurrences(of: "X-TEAM:Blue", with: "X-TEAM:Green").utf8).write(to: file)
        #expect(try box.contacts(["sync"]).status == 0)
        #expect(try box.contacts(["show", "1", "--json"]).json()["fields"] as? [String: String]
                == ["TEAM": "Green", "SHIRT_SIZE": "L", "CITY": "Zagreb"])
    }
}
