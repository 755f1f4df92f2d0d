import Foundation
import Testing

/// A custom field in Contacts in a real terminal: `e` opens the form with the person's fields as rows, one is changed
/// and one typed into the empty row, ctrl-s saves, and the detail lists them.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIContactsFieldsTests {
    @Test func aFieldChangedAndOneAddedInTheFormAreWhatTheDetailShows() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", mobile(1))])
        try cli.ok(["contacts", "edit", "1", "--field", "Shirt size=M"])
        let session = try cli.terminal(width: 110, height: 34)
        defer { session.kill() }
        _ = try session.waitUntil(timeout: 30, "Contacts") { $0.contains("Contacts —") && $0.contains("Ana Horvat") }
        try session.sendKeys("e")
        _ = try session.waitUntil(timeout: 15, "the form with the field") { $0.contains("Edit Ana Horvat") && $0.contains("SHIRT_SIZE: M") }
        // First name, Last name, Name, Organization, the number and an empty row, an empty Email row: the field is next.
        for _ in 0..<7 { try session.sendKeys("Tab") }
        try session.sendKeys("C-u")
        try session.sendLiteral("SHIRT_SIZE: L")
        try session.sendKeys("Down")
        try session.sendLiteral("Team: Blue")
        try session.sendKeys("C-s")
        _ = try session.waitUntil(timeout: 15, "the saved edit") { $0.contains("Saved Ana Horvat") }
        try session.sendKeys("Enter")
        let detail = try session.waitUntil(timeout: 15, "the detail with both fields") {
            $0.contains("SHIRT_SIZE: L") && $0.contains("TEAM: Blue") && $0.contains("Fields (a message uses each as {NAME}; e edits them)")
        }
        #expect(!detail.contains("SHIRT_SIZE: M"), "\(detail)")
        let shown = try cli.ok(["contacts", "show", "1", "--json"]).object()
        #expect(shown["fields"] as? [String: String] == ["SHIRT_SIZE": "L", "TEAM": "Blue"])
    }
}
