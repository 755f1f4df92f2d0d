import Foundation
import Testing

private let khardCard = """
BEGIN:VCARD
VERSION:3.0
UID:ana-1
FN:Ana Horvat
N:Horvat;Ana;;;
TEL;TYPE=cell:+385911111111
EMAIL;TYPE=work:ana@acme.hr
X-KHARD-NICK:ana
REV:20261126T031500Z
END:VCARD

"""

/// A vdir book of `[[books]]` shared with khard: Herald reads it, writes its edits back to the card files, and real
/// khard reads what Herald wrote.
@Suite(.serialized) struct CLIContactsBooksTests {
    func sandbox() throws -> (CLISandbox, URL) {
        let box = try CLISandbox()
        let folder = box.root.appendingPathComponent("home/contacts/personal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(khardCard.utf8).write(to: folder.appendingPathComponent("ana-1.vcf"))
        _ = try box.write("config/herald/config.toml", """
            region = "HR"
            [[books]]
            name = "personal"
            kind = "vdir"
            path = "~/contacts/personal"
            """)
        return (box, folder)
    }

    /// Real khard (Debian's) on the same folder: what it printed.
    static func khard(_ box: CLISandbox, _ folder: URL, _ arguments: [String]) throws -> String {
        let config = try box.write("khard.conf", "[addressbooks]\n[[personal]]\npath = \(folder.path)\n")
        let run = try ProgramRun("/usr/bin/khard", ["-c", config.path] + arguments, environment: box.environment, withErrors: false)
        #expect(run.status == 0, "khard \(arguments) exited \(run.status): \(run.output)")
        return run.output
    }

    func khard(_ box: CLISandbox, _ folder: URL, _ arguments: [String]) throws -> String {
        try Self.khard(box, folder, arguments)
    }

    @Test func syncAddEditAndDeleteAreWrittenBackAndKhardReadsThem() throws {
        let (box, folder) = try sandbox()
        let sync = try box.contacts(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("personal: 1 added, 0 updated, 0 removed, 0 unchanged"))

        let added = try box.contacts(["add", "Cvita Perić", "--phone", "mobile: 091 333 3333", "--email", "home: cvita@example.com",
                                      "--book", "personal", "--json"])
        #expect(added.status == 0, "\(added.stderr)")
        let cvita = try #require(try added.json()["id"] as? Int)
        let list = try box.contacts(["list", "--book", "personal", "--json"]).json()
        #expect((list["contacts"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ana Horvat", "Cvita Perić"])

        let ana = try #require((list["contacts"] as? [[String: Any]])?.first?["id"] as? Int)
        let edit = try box.contacts(["edit", String(ana), "--add-phone", "work: 01 234 5678", "--org", "Acme"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let anaFile = try String(contentsOf: folder.appendingPathComponent("ana-1.vcf"), encoding: .utf8)
        #expect(anaFile.contains("X-KHARD-NICK:ana\n") && anaFile.contains("UID:ana-1\n") && !anaFile.contains("\r"))
        #expect(!anaFile.contains("REV:20261126T031500Z"))

        let shown = try khard(box, folder, ["list"])
        #expect(shown.contains("Ana Horvat") && shown.contains("Cvita Perić"), "\(shown)")
        let anaByKhard = try khard(box, folder, ["show", "Ana"])
        #expect(anaByKhard.contains("+38512345678") && anaByKhard.contains("Acme") && anaByKhard.contains("+385911111111"), "\(anaByKhard)")
        let emails = try khard(box, folder, ["email", "--parsable", "Cvita"])
        #expect(emails.contains("cvita@example.com\tCvita Perić\thome"), "\(emails)")

        let delete = try box.contacts(["delete", String(cvita), "--yes"])
        #expect(delete.status == 0, "\(delete.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ana-1.vcf"])
        #expect(!(try khard(box, folder, ["list"])).contains("Cvita"))
    }

    @Test func aBookLineInAnEditedCardMovesTheContactIntoThatBook() throws {
        let (box, folder) = try sandbox()
        let added = try box.contacts(["add", "Dora Local", "--phone", "091 444 4444", "--json"])
        let dora = try #require(try added.json()["id"] as? Int)
        let editor = try box.write("add-book.sh", "#!/bin/sh\nprintf 'Book: personal\\n' >> \"$1\"\n")
        chmod(editor.path, 0o755)
        let edited = try box.run(["contacts", "edit", String(dora), "--data-dir", box.dataDir.path], extraEnvironment: ["EDITOR": editor.path])
        #expect(edited.status == 0, "\(edited.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "ana-1.vcf" }
        let file = try #require(files.count == 1 ? files.first : nil, "\(files)")
        let card = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        #expect(card.contains("FN:Dora Local"), "\(card)")
        let listed = try box.contacts(["list", "--book", "personal", "--json"]).json()["contacts"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["name"] as? String } == ["Dora Local"])
    }

    @Test func aCardKhardChangedIsReadAgainAndABookNobodyConfiguredIsNamed() throws {
        let (box, folder) = try sandbox()
        #expect(try box.contacts(["sync"]).status == 0)
        // khard (or vdirsyncer) rewrites the card: the next sync takes it.
        try Data(khardCard.replacingOccurrences(of: "+385911111111", with: "+385987654321").utf8)
            .write(to: folder.appendingPathComponent("ana-1.vcf"))
        let sync = try box.contacts(["sync", "personal", "--json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("\"updated\" : 1") || sync.stdout.contains("\"updated\":1"), "\(sync.stdout)")
        let list = try box.contacts(["list", "--search", "book:personal phone:98765", "--json"]).json()
        #expect(list["count"] as? Int == 1)
        // An import's new contacts can join the book; a contact can leave it.
        let file = try box.write("more.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Dora Nova\nN:Nova;Dora;;;\nTEL:+385 91 444 4444\nEND:VCARD\n")
        let imported = try box.contacts(["import", file.path, "--book", "personal"])
        #expect(imported.status == 0 && imported.stdout.contains("1 contact added to book personal"), "\(imported.stdout)\(imported.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 2)
        let dora = try #require((try box.contacts(["list", "--search", "name:dora", "--json"]).json()["contacts"] as? [[String: Any]])?
            .first?["id"] as? Int)
        let moved = try box.contacts(["move", String(dora), "--no-book"])
        #expect(moved.status == 0 && moved.stdout.contains("moved 1 contact out of their books"), "\(moved.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["ana-1.vcf"])
        // Imported into the book again with a new card and Ana's: Dora, now of no book, joins it with the new one; Ana
        // (already in it) stays as she is.
        let again = try box.write("again.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Dora Nova\nN:Nova;Dora;;;\nTEL:+385 91 444 4444\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN:Eva Nova\nN:Nova;Eva;;;\nTEL:+385 91 555 5555\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Horvat\nN:Horvat;Ana;;;\nTEL:+385 98 765 4321\nEND:VCARD\n")
        let joined = try box.contacts(["import", again.path, "--book", "personal"])
        #expect(joined.status == 0 && joined.stdout.contains("2 contacts added to book personal (1 of them merged into a contact of no book)"),
                "\(joined.stdout)\(joined.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
        let inBook = try box.contacts(["list", "--book", "personal", "--json"]).json()["contacts"] as? [[String: Any]]
        #expect(Set(inBook?.compactMap { $0["name"] as? String } ?? []) == ["Ana Horvat", "Dora Nova", "Eva Nova"])

        let unknown = try box.contacts(["sync", "work"])
        #expect(unknown.status != 0 && unknown.stderr.contains("no address book \"work\": the books are personal"), "\(unknown.stderr)")
        let badSearch = try box.contacts(["list", "--book", "work"])
        #expect(badSearch.status != 0 && badSearch.stderr.contains("book:work is not a book: use book:personal"), "\(badSearch.stderr)")
    }
}
