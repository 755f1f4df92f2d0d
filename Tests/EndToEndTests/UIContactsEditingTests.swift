import Foundation
import Testing

/// Contacts' `a` and `e` (the form, typed into as a person would), ctrl-o and `E` (the card goes to $EDITOR, a script
/// editing it as a person would, and back), `x` with `u`, `=` and `M` in a real terminal; the list shows each change.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIContactsEditingTests {
    /// An $EDITOR script in the CLI's folder (removed with it): `body` runs with the card's path as $1.
    static func editor(_ body: String, in cli: PlatformCLI) throws -> URL {
        let url = cli.home.appendingPathComponent("card-editor-\(UUID().uuidString)")
        try "#!/bin/sh\n\(body)\n".write(to: url, atomically: true, encoding: .utf8)
        chmod(url.path, 0o755)
        return url
    }

    static func herald(_ cli: PlatformCLI, editor: URL) throws -> TmuxSession {
        let session = try cli.terminal(width: 110, environment: ["EDITOR": editor.path, "VISUAL": ""])
        _ = try session.waitUntil(timeout: 30, "Contacts") { $0.contains("Contacts —") && $0.contains("Ana Horvat") }
        return session
    }

    @Test func aContactTypedIntoTheFormShowsInTheListAndADeleteComesBackWithU() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        let editor = try Self.editor("exit 1", in: cli)
        let session = try Self.herald(cli, editor: editor)
        defer { session.kill() }
        try session.sendKeys("a")
        _ = try session.waitUntil(timeout: 15, "the form") { $0.contains("New contact") && $0.contains("First name") && $0.contains("ctrl-s save") }
        // Letters that are keys of the list (a, e, q, x) are text here.
        try session.sendLiteral("Zvonimir")
        try session.sendKeys("Tab")
        try session.sendLiteral("Zec")
        try session.sendKeys("Tab", "Tab", "Tab")
        try session.sendLiteral("mobile: +385 98 765 4321")
        try session.sendKeys("Down", "Down")
        try session.sendLiteral("zec@")
        try session.sendKeys("C-s")
        // The card's own check: the form stays, the row says why.
        _ = try session.waitUntil(timeout: 15, "the problem on its row") { $0.contains("\"zec@\" is not an email address") && $0.contains("New contact") }
        try session.sendLiteral("example.com")
        try session.sendKeys("C-s")
        let added = try session.waitUntil(timeout: 15, "the new contact listed") { $0.contains("Zvonimir Zec") && $0.contains("2 people") }
        #expect(added.contains("Added Zvonimir Zec"))
        let shown = try cli.ok(["contacts", "show", "2", "--json"]).object()
        #expect(shown["emails"] as? [String] == ["zec@example.com"])
        #expect((shown["phones"] as? [[String: Any]])?.compactMap { $0["e164"] as? String } == ["+385987654321"])
        try session.sendKeys("G")
        try session.sendKeys("x")
        _ = try session.waitUntil(timeout: 15, "the delete") { $0.contains("1 people") && !$0.contains("Zvonimir Zec  ") && $0.contains("u brings") }
        try session.sendKeys("u")
        _ = try session.waitUntil(timeout: 15, "Zvonimir back") { $0.contains("Zvonimir Zec") && $0.contains("2 people") && $0.contains("is back") }
        _ = cli
    }

    @Test func aNewCardSaysWhichBookAndGoesWhereItsBookLineSays() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        var books = ""
        for name in ["personal", "work"] {
            let folder = cli.home.appendingPathComponent("books/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            books += "[[books]]\nname = \"\(name)\"\nkind = \"vdir\"\npath = \"\(folder.path)\"\n"
        }
        let config = cli.home.appendingPathComponent("config/herald/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try books.write(to: config, atomically: true, encoding: .utf8)
        // The card offers the books (the first written in); the editor keeps what it was offered, then picks work.
        let offered = cli.home.appendingPathComponent("offered-card")
        let editor = try Self.editor("cp \"$1\" '\(offered.path)'\n"
            + #"sed -i 's/^First name: .*/First name: Zvonimir/; s/^Last name: .*/Last name: Zec/; s/^Book: .*/Book: work/' "$1""#, in: cli)
        let session = try Self.herald(cli, editor: editor)
        defer { session.kill() }
        _ = try session.waitUntil(timeout: 15, "the books' state") { $0.contains("books: personal") }
        try session.sendKeys("a")
        _ = try session.waitUntil(timeout: 15, "the form") { $0.contains("New contact") && $0.contains("Book") }
        try session.sendKeys("C-o")
        _ = try session.waitUntil(timeout: 15, "the new contact listed") { $0.contains("Added Zvonimir Zec") }
        let card = try String(contentsOf: offered, encoding: .utf8)
        #expect(card.contains("# Book: one of personal, work; empty: no book\nBook: personal\n"), "\(card)")
        let work = try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("books/work").path)
        #expect(work.count == 1 && work.allSatisfy { $0.hasSuffix(".vcf") }, "\(work)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cli.home.appendingPathComponent("books/personal").path).isEmpty)
        let listed = try cli.ok(["contacts", "list", "--book", "work", "--json"]).object()["contacts"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["name"] as? String } == ["Zvonimir Zec"])
    }

    @Test func aBadCardOpensAgainWithItsProblemThenTheMendedCardIsSaved() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567")])
        // First pass writes a bad email; on the reopened card (its problems on top) it mends it.
        let editor = try Self.editor("""
            if grep -q '^# ! ' "$1"; then sed -i 's/^Email: .*/Email: ana@acme.hr/' "$1"; else sed -i 's/^Email: .*/Email: not-an-address/' "$1"; fi
            """, in: cli)
        let session = try Self.herald(cli, editor: editor)
        defer { session.kill() }
        try session.sendKeys("E")
        _ = try session.waitUntil(timeout: 15, "the saved edit") { $0.contains("Saved Ana Horvat") }
        let shown = try cli.ok(["contacts", "show", "1", "--json"]).object()
        #expect(shown["emails"] as? [String] == ["ana@acme.hr"])
    }

    @Test func theDuplicatesViewThenAMergeAfterItsPreview() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567"), ("Ivo", "Babić", "+385912222222")])
        try cli.ok(["contacts", "add", "Ana H.", "--phone", "+385 91 123 4567", "--email", "ana@home.example"])
        let editor = try Self.editor("true", in: cli)
        let session = try Self.herald(cli, editor: editor)
        defer { session.kill() }
        try session.sendKeys("=")
        _ = try session.waitUntil(timeout: 15, "the duplicates view") { $0.contains("2 who look like one person") && !$0.contains("Ivo Babić") }
        try session.sendKeys("Space")
        try session.sendKeys("Space")
        try session.sendKeys("M")
        _ = try session.waitUntil(timeout: 15, "the merge preview") {
            $0.contains("Merge 2 people") && $0.contains("Keep Ana Horvat and merge into it:") && $0.contains("email  ana@home.example")
        }
        try session.sendKeys("y")
        // Nobody looks like anybody once they are one.
        _ = try session.waitUntil(timeout: 15, "the merge") { $0.contains("0 who look like one person") && $0.contains("no likely duplicates") }
        try session.sendKeys("=")
        _ = try session.waitUntil(timeout: 15, "everyone") { $0.contains("2 people") && $0.contains("Ivo Babić") }
        let listed = try cli.ok(["contacts", "list", "--json"]).object()
        #expect(listed["count"] as? Int == 2)
        let kept = try cli.ok(["contacts", "show", "1", "--json"]).object()
        #expect(kept["name"] as? String == "Ana Horvat" && kept["emails"] as? [String] == ["ana@home.example"])
    }
}
