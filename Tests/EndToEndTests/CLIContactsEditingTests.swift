import Foundation
import Testing

/// `herald contacts add|edit|delete|merge|duplicates`, run as the real binary on a real workspace.
@Suite struct CLIContactsEditingTests {
    /// A shell script used as $EDITOR: `body` runs with the card's path as $1.
    func editor(_ box: CLISandbox, _ name: String, _ body: String) throws -> String {
        let url = try box.write(name, "#!/bin/sh\n" + body + "\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    @Test func addedContactsAreListedShownAndBadValuesAreRefusedNamingTheOption() throws {
        let box = try CLISandbox()
        let added = try box.contacts(["add", "Ana Marija Kovač", "--phone", "mobile: +385 91 234 5678", "--email", "work: ana@acme.hr",
                                      "--org", "Acme", "--note", "met at the fair", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let json = try added.json()
        #expect(json["firstName"] as? String == "Ana Marija" && json["lastName"] as? String == "Kovač")
        #expect(json["note"] as? String == "met at the fair")
        let shown = try box.contacts(["show", "\(json["id"] as? Int ?? 0)"])
        #expect(shown.stdout.contains("mobile  +385 91 234 5678  +385912345678  not invited"))
        #expect(shown.stdout.contains("email: ana@acme.hr (work)") && shown.stdout.contains("note: met at the fair"))
        // Each bad value names its option, and nothing is added.
        let badEmail = try box.contacts(["add", "Ivo", "--email", "ivo@"])
        #expect(badEmail.status == 1 && badEmail.stderr.contains("--email: \"ivo@\" is not an email address"))
        let hostile = try box.contacts(["add", "Evil\u{1B}]52;c;SGVsbG8=\u{07}"])
        #expect(hostile.status == 1 && hostile.stderr.contains("U+001B") && !hostile.stderr.contains("\u{1B}"))
        #expect(try box.contacts(["list", "--json"]).json()["count"] as? Int == 1)
        // The same number added again is kept, and the first owner named for a merge.
        let again = try box.contacts(["add", "kovac ana", "--phone", "+385912345678"])
        #expect(again.status == 0 && again.stderr.contains("merge them with `herald contacts merge 1 2`"))
    }

    @Test func editWithOptionsOrACardInTheEditorAndABadCardReopensWithItsProblemsThenIsKept() throws {
        let box = try CLISandbox()
        #expect(try box.contacts(["add", "Ana Kovač", "--phone", "+385 91 234 5678", "--email", "ana@acme.hr"]).status == 0)
        let options = try box.contacts(["edit", "1", "--org", "Acme", "--add-phone", "work: 01 2345 678", "--region", "HR",
                                        "--remove-email", "ANA@acme.hr"])
        #expect(options.status == 0, "\(options.stderr)")
        var shown = try box.contacts(["show", "1", "--json"]).json()
        #expect(shown["organization"] as? String == "Acme" && (shown["emails"] as? [String])?.isEmpty == true)
        #expect((shown["phones"] as? [[String: Any]])?.map { $0["e164"] as? String } == ["+385912345678", "+38512345678"])
        // The editor: a card changed by a script as a person would.
        let good = try editor(box, "good.sh", #"sed -i 's/^Organization: .*/Organization: Acme Ltd/; s/^Note: .*/Note: first line\nNote: second line/' "$1""#)
        let edited = try box.run(["contacts", "edit", "1", "--data-dir", box.dataDir.path], extraEnvironment: ["EDITOR": good])
        #expect(edited.status == 0, "\(edited.stderr)")
        shown = try box.contacts(["show", "1", "--json"]).json()
        #expect(shown["organization"] as? String == "Acme Ltd" && shown["note"] as? String == "first line\nsecond line")
        // A bad card opens again with its problems on top, numbered as the lines appear; saved unchanged, it is kept.
        let log = box.root.appendingPathComponent("seen.txt").path
        let bad = try editor(box, "bad.sh", """
            cat "$1" >> \(log); echo ---- >> \(log)
            grep -q '^# !' "$1" || sed -i 's/^Organization:/Organisation:/' "$1"
            """)
        let refused = try box.run(["contacts", "edit", "1", "--data-dir", box.dataDir.path], extraEnvironment: ["EDITOR": bad])
        #expect(refused.status == 1)
        let seen = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "----\n")
        #expect(seen.count == 3)
        let reopened = seen[1].split(separator: "\n", omittingEmptySubsequences: false)
        let problem = try #require(reopened.first { $0.hasPrefix("# ! line ") })
        let line = try #require(Int(problem.dropFirst("# ! line ".count).prefix { $0.isNumber }))
        #expect(reopened[line - 1].hasPrefix("Organisation: Acme Ltd"), "\(seen[1])")
        let kept = try #require(refused.stderr.split(separator: "\n").first { $0.contains("your card is kept in") })
        let keptPath = String(try #require(kept.split(separator: " ").first { $0.hasSuffix("-unsaved.txt:") }).dropLast())
        #expect(try box.contacts(["show", "1", "--json"]).json()["organization"] as? String == "Acme Ltd")
        // Mended and read back with --card.
        let card = try String(contentsOfFile: keptPath, encoding: .utf8).replacingOccurrences(of: "Organisation:", with: "Organization:")
        try card.replacingOccurrences(of: "Acme Ltd", with: "Acme d.o.o.").write(toFile: keptPath, atomically: true, encoding: .utf8)
        #expect(try box.contacts(["edit", "1", "--card", keptPath]).status == 0)
        #expect(try box.contacts(["show", "1", "--json"]).json()["organization"] as? String == "Acme d.o.o.")
        try? FileManager.default.removeItem(atPath: keptPath)
    }

    @Test func duplicatesAreListedWithWhyAndAMergeKeepsEverythingOnce() throws {
        let box = try CLISandbox()
        for args in [["Ana Kovač", "--phone", "+385 91 234 5678"], ["kovac ana", "--email", "ana@acme.hr"],
                     ["Ana K", "--phone", "+385912345678", "--email", "ana@home.example"], ["Ivo Ivić", "--phone", "+385 98 111 2222"]] {
            #expect(try box.contacts(["add"] + args).status == 0)
        }
        let groups = try box.contacts(["duplicates", "--json"]).json()["groups"] as? [[String: Any]]
        #expect(groups?.count == 1)
        #expect(groups?.first?["ids"] as? [Int] == [1, 2, 3])
        #expect(Set(groups?.first?["reasons"] as? [String] ?? []) == ["names alike: ana kovac", "same number +385912345678"])
        let listed = try box.contacts(["duplicates"])
        #expect(listed.stdout.contains("merge: herald contacts merge 1 2 3"))
        let merged = try box.contacts(["merge", "1", "2", "3", "--json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let person = try merged.json()
        #expect(person["name"] as? String == "Ana Kovač")
        #expect((person["phones"] as? [[String: Any]])?.count == 1)
        #expect(person["emails"] as? [String] == ["ana@acme.hr", "ana@home.example"])
        #expect(try box.contacts(["list", "--json"]).json()["count"] as? Int == 2)
        #expect(try box.contacts(["duplicates"]).stdout == "no likely duplicates\n")
        // Deleting from a script needs --yes.
        let refused = try box.contacts(["delete", "1"])
        #expect(refused.status == 1 && refused.stderr.contains("pass --yes"))
        #expect(try box.contacts(["delete", "1", "4", "--yes"]).status == 0)
        #expect(try box.contacts(["list", "--json"]).json()["count"] as? Int == 0)
    }

    @Test func nobodyInvitedBecomesNotInvitedByAMerge() throws {
        let cli = try PlatformCLI()
        try cli.ok(["contacts", "add", "Ana Kovač", "--phone", "+385 91 234 5678"])
        try cli.ok(["contacts", "add", "Ana Work", "--phone", "+385 98 765 4321"])
        try cli.ok(["send", "--to", "2", "--json"])
        try cli.ok(["contacts", "merge", "1", "2"])
        let shown = try cli.ok(["contacts", "show", "1", "--json"]).object()
        let phones = try #require(shown["phones"] as? [[String: Any]])
        let invited = try #require(phones.first { $0["e164"] as? String == "+385987654321" })
        #expect(invited["status"] as? String != nil, "\(phones)")
        let history = try cli.ok(["contacts", "show", "1"]).stdout
        #expect(history.contains("bulks: "), "\(history)")
    }

    @Test func aMailsSenderIsAddedJoinedToAPersonOfThatNameOrFoundAlready() throws {
        let box = try CLISandbox()
        #expect(try box.contacts(["add", "Ivo Babić", "--phone", "+385 91 222 2222"]).status == 0)
        let mail = try box.write("mail.eml", """
            From: =?UTF-8?B?QW5hIEtvdmHEjQ==?= <ana@acme.hr>\r
            To: "Babić, Ivo" <ivo@y.hr>, Evil\u{1B}[2J <evil@x.hr>\r
            Subject: hello\r
            \r
            From: body@nope.example\r

            """)
        let run = { (args: [String]) throws -> CLIRun in
            try box.run(["contacts", "add-email"] + args + ["--data-dir", box.dataDir.path], stdin: mail)
        }
        let first = try run([])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "added Ana Kovač (id 2) with ana@acme.hr\n")
        #expect(try run([]).stdout == "ana@acme.hr is already Ana Kovač (id 2)'s\n")
        let to = try run(["--headers", "to", "--json"])
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(to.stdout.utf8)) as? [[String: Any]])
        #expect(outcomes.map { $0["action"] as? String } == ["joined", "added"])
        #expect(outcomes.first?["id"] as? Int == 1)
        #expect(!to.stdout.contains("\u{1B}"))
        let ivo = try box.contacts(["show", "1", "--json"]).json()
        #expect(ivo["emails"] as? [String] == ["ivo@y.hr"])
        let none = try box.run(["contacts", "add-email", "--data-dir", box.dataDir.path])
        #expect(none.status == 1 && none.stderr.contains("no address in the from field"))
    }
}
