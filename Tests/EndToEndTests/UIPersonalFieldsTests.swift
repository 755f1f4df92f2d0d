import Foundation
import Testing

/// Personal fields from the real TUI, in tmux: three people tagged with one key, the list filtered by that group, all
/// three selected and the Composer's message `Hi {FIRST_NAME}, …` previewed for each of them with `<`/`>` — each preview
/// with that person's own first name — then sent; the texts as sent (the ledger, through `deliveries list --json`)
/// each carry the right first name, and the fourth person, outside the group, got nothing.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIPersonalFieldsTests {
    @Test func aGroupTaggedFilteredAndSentGetsEachPersonsOwnFirstName() throws {
        let cli = try PlatformCLI()
        let runners = [("Ema", "Antić"), ("Filip", "Babić"), ("Goran", "Cvitan")]
        let firstNames = Dictionary(uniqueKeysWithValues: runners.map { ("\($0.0) \($0.1)", $0.0) })
        _ = try cli.importContacts(runners.enumerated().map { ($0.element.0, $0.element.1, mobile(41 + $0.offset)) }
                                   + [("Hana", "Zec", mobile(44))])
        // The message with a personal field, made before the terminal starts (index 2 of the Composer's messages).
        try cli.ok(["templates", "create", "--key", "hi", "--text", "Hi {FIRST_NAME}, join me: <>"])

        let session = try cli.terminal(width: 110)
        defer { session.kill() }
        _ = try session.waitUntil(timeout: 30, "Contacts") { $0.contains("Contacts —") && $0.contains("Hana Zec") }
        // Tag Ema, Filip and Goran (space selects the row under the cursor and moves down).
        try session.sendKeys("Space", "Space", "Space")
        try session.waitFor(text: "3 selected", timeout: 15)
        try session.sendKeys("t")
        try session.waitFor(text: ":tag", timeout: 15)
        try session.sendLiteral("Running Club")
        try session.sendKeys("Enter")
        try session.waitFor(text: "Tagged 3 people Running Club", timeout: 15)
        // Start from nobody selected, so the selection that is sent is the one the group filter gives.
        try session.sendKeys("D")
        _ = try session.waitUntil(timeout: 15, "the selection cleared") { $0.contains("Contacts —") && !$0.contains(" selected") }

        try session.sendKeys(":")
        try session.sendLiteral("group running club")
        try session.sendKeys("Enter")
        _ = try session.waitUntil(timeout: 15, "the group listed") { screen in
            screen.contains("group:\"running club\"") && firstNames.keys.allSatisfy { screen.contains($0) } && !screen.contains("Hana Zec")
        }
        try session.sendKeys("A")
        try session.waitFor(text: "3 selected", timeout: 15)

        // The Composer, on the message with {FIRST_NAME}.
        try session.sendKeys("3")
        try session.waitFor(text: "Message: default message (1/2, [ ] to switch)", timeout: 15)
        try session.sendKeys("]")
        try session.waitFor(text: "Message: custom message hi (2/2, [ ] to switch)", timeout: 15)

        // Each recipient's own preview: > steps through all three, < goes back one.
        var shown: [Int: String] = [:]
        for index in 1...3 {
            if index > 1 { try session.sendKeys(">") }
            let screen = try session.waitUntil(timeout: 15, "the preview \(index)/3 with its own first name") { screen in
                Self.previewed(on: screen, index: index, of: firstNames) != nil
            }
            shown[index] = Self.previewed(on: screen, index: index, of: firstNames)
        }
        #expect(Set(shown.values) == Set(firstNames.keys), "\(shown)")
        try session.sendKeys("<")
        let back = try session.waitUntil(timeout: 15, "the preview 2/3 again") { Self.previewed(on: $0, index: 2, of: firstNames) != nil }
        #expect(Self.previewed(on: back, index: 2, of: firstNames) == shown[2])

        // Send: the question first (an Enter before it would go to the message), then the toast of the bulk.
        try session.sendKeys("C-s")
        try session.waitFor(text: "Send 3 SMS invitations (3 segments)?", timeout: 15)
        try session.sendKeys("Enter")
        let toast = try session.waitFor(text: "sent 3 invitations, bulk ", timeout: 20)
        #expect(!toast.contains("refused") && !toast.contains("not sent"), "\(toast)")

        // The texts as sent, from the ledger: each person's own first name, link filled; Hana got nothing.
        let listed = try cli.ok(["deliveries", "list", "--json"]).object()
        let recipients = try #require(listed["recipients"] as? [[String: Any]])
        #expect(recipients.count == 3, "\(recipients)")
        var sent: [String: String] = [:]
        for r in recipients { if let name = r["name"] as? String { sent[name] = r["text"] as? String ?? "" } }
        #expect(Set(sent.keys) == Set(firstNames.keys), "\(sent)")
        for (name, first) in firstNames {
            let text = sent[name] ?? ""
            #expect(text.hasPrefix("Hi \(first), join me: https://"), "\(name): \(text)")
            #expect(!text.contains("{") && !text.contains("<>"), "\(name): \(text)")
        }
    }

    /// The full name whose preview is shown as recipient `index` of 3 when the preview text under it greets that same
    /// person by first name (and nobody else); nil otherwise.
    static func previewed(on screen: String, index: Int, of firstNames: [String: String]) -> String? {
        guard let name = firstNames.keys.first(where: { screen.contains("Preview for \($0) (\(index)/3, < >)") }),
              let first = firstNames[name] else { return nil }
        let greeted = firstNames.values.filter { screen.contains("Hi \($0), join me: ") }
        return greeted == [first] ? name : nil
    }
}
