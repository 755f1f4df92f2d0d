import Foundation
import Testing

/// Pasting into the real terminal UI with tmux's own bracketed paste (`paste-buffer -p`): a paste is text, never keys.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIPasteTests {
    static let people: [(first: String, last: String, phone: String)] = [
        ("Ivana", "Ivić", "+385911111111"), ("Ana", "Horvat", "+385912222222"),
        ("Bruno", "Kovač", "+385913333333"), ("Željka", "Perić", "+385914444444"),
    ]

    static func herald(_ cli: PlatformCLI, environment: [String: String] = [:]) throws -> TmuxSession {
        _ = try cli.importContacts(people)
        let session = try cli.terminal(width: 110, environment: environment)
        _ = try session.waitUntil(timeout: 30, "Contacts") { $0.contains("Contacts — 4 people") && $0.contains("Željka Perić") }
        return session
    }

    /// Nothing was sent: the Deliveries pane has no bulk and no number of anyone has an invitation state.
    static func expectNothingSent(_ cli: PlatformCLI, _ session: TmuxSession) throws {
        try session.sendKeys("5")
        _ = try session.waitFor(text: "No invitations sent yet", timeout: 15)
        let listed = try cli.ok(["contacts", "list", "--json"]).object()
        let phones = (listed["contacts"] as? [[String: Any]] ?? []).flatMap { $0["phones"] as? [[String: Any]] ?? [] }
        #expect(phones.count == people.count)
        #expect(phones.allSatisfy { $0["status"] is NSNull }, "\(phones)")
    }

    @Test func aPastedNameWithItsLineBreakSendsNothingAndBecomesTheSearch() throws {
        let cli = try PlatformCLI()
        let session = try Self.herald(cli)
        defer { session.kill() }
        // As keys, I would invite, v a n select and enter open: on main this opened "Send 4 SMS invitations".
        try session.paste("Ivana\n")
        let searched = try session.waitUntil(timeout: 15, "the paste as the search") {
            $0.contains("/ Ivana") && $0.contains("Ivana Ivić") && !$0.contains("Željka Perić")
        }
        #expect(!searched.contains("Send ") && !searched.contains("selected"))
        // The search field is still open: what is typed next is text too.
        try session.sendLiteral(" I")
        _ = try session.waitFor(text: "/ Ivana I", timeout: 10)
        try session.sendKeys("Escape")
        let after = try session.waitUntil(timeout: 10, "the search closed") { !$0.contains("enter done") }
        #expect(!after.contains("Send ") && !after.contains("selected"))
        try Self.expectNothingSent(cli, session)
    }

    @Test func twoPastedLinesSelectNobodyAndOpenNothing() throws {
        let cli = try PlatformCLI()
        let session = try Self.herald(cli)
        defer { session.kill() }
        // As keys, a selects all, e opens an edit form, space selects: on main this selected everyone and opened a form.
        try session.paste("Željka\nPerić\n")
        let searched = try session.waitUntil(timeout: 15, "two lines as one search") {
            $0.contains("/ Željka Perić") && $0.contains("1 found")
        }
        #expect(!searched.contains("selected") && !searched.contains("Edit ") && !searched.contains("First name"))
    }

    @Test func theEditorGetsItsTerminalWithoutBracketedPasteAndHeraldGetsItBack() throws {
        let cli = try PlatformCLI()
        let got = cli.home.appendingPathComponent("editor-got")
        // An editor that reads one pasted line from its terminal and keeps what arrived, then changes nothing.
        let editor = cli.home.appendingPathComponent("read-editor")
        try FileManager.default.createDirectory(at: cli.home, withIntermediateDirectories: true)
        try "#!/bin/sh\necho editor-ready\nIFS= read -r line\nprintf '%s' \"$line\" > '\(got.path)'\nexit 0\n"
            .write(to: editor, atomically: true, encoding: .utf8)
        chmod(editor.path, 0o755)
        let session = try Self.herald(cli, environment: ["EDITOR": editor.path, "VISUAL": ""])
        defer { session.kill() }
        try session.sendKeys("E")
        _ = try session.waitFor(text: "editor-ready", timeout: 15)
        try session.paste("hello\n")
        _ = try session.waitUntil(timeout: 15, "Herald back") { $0.contains("Contacts —") && !$0.contains("editor-ready") }
        let line = try String(contentsOf: got, encoding: .utf8)
        #expect(line == "hello", "the editor got \(line.debugDescription): bracketed paste was left on for it")
        // Back in Herald, a paste is a paste again.
        try session.paste("Bruno\n")
        _ = try session.waitUntil(timeout: 15, "the paste as the search") { $0.contains("/ Bruno") && $0.contains("1 found") }
    }
}
