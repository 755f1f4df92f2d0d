import Foundation
import Testing

/// Groups in Contacts in a real terminal: `t` asks for a group in the palette and tags the selected people, `:group`
/// lists the group, the detail shows a person's groups, `:save` keeps the search as a segment and `:segment` lists it.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIContactsGroupsTests {
    @Test func threePeopleTaggedWithOneKeyAreTheGroupTheFilterShows() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", mobile(1)), ("Bo", "Kim", mobile(2)), ("Cvita", "Perić", mobile(3)),
                                    ("Dora", "Zec", mobile(4))])
        let session = try cli.terminal(width: 110)
        defer { session.kill() }
        _ = try session.waitUntil(timeout: 30, "Contacts") { $0.contains("Contacts —") && $0.contains("Dora Zec") }
        // Space selects the row under the cursor and moves down: Ana, Bo and Cvita.
        try session.sendKeys("Space", "Space", "Space")
        _ = try session.waitUntil(timeout: 15, "three selected") { $0.contains("3 selected") }
        try session.sendKeys("t")
        _ = try session.waitUntil(timeout: 15, "the palette asking") { $0.contains(":tag") }
        try session.sendLiteral("Running Club")
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 15, "the tagging said") { $0.contains("Tagged 3 people Running Club") }

        try session.sendKeys(":")
        try session.sendLiteral("group running club")
        try session.sendKeys("Enter")
        let listed = try session.waitUntil(timeout: 15, "the group listed") {
            $0.contains("group:\"running club\"") && $0.contains("Cvita Perić") && !$0.contains("Dora Zec")
        }
        #expect(listed.contains("Ana Horvat") && listed.contains("Bo Kim"), "\(listed)")

        // The search is kept as a segment; the book changes, and the segment follows it.
        try session.sendKeys(":")
        try session.sendLiteral("save runners")
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 15, "the segment saved") { $0.contains("Saved segment runners") }
        try cli.ok(["contacts", "tag", String(try #require(try cli.ok(["contacts", "list", "--search", "dora", "--json"])
            .object()["contacts"].flatMap { ($0 as? [[String: Any]])?.first?["id"] as? Int })), "--add", "running club"])
        try session.sendKeys(":")
        try session.sendLiteral("segment runners")
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 15, "the segment with Dora") { $0.contains("segment:runners") && $0.contains("Dora Zec") }

        // The detail of one of them shows the group.
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 15, "the detail") { $0.contains("Groups: Running Club") }
        _ = cli
    }
}
