import Foundation
import HeraldTestKit
import Testing

@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct InboxEndToEndTests {
    /// "30 messages, 9 unread" on the inbox's counts line → 9.
    static func unread(in screen: String) -> Int? {
        guard let range = screen.range(of: #"\d+ messages, \d+ unread"#, options: .regularExpression) else { return nil }
        let words = screen[range].split(separator: " ")
        return words.count >= 3 ? Int(words[2]) : nil
    }

    /// Herald on `cli`'s workspace in tmux, on the Inbox of `user`, once `text` is on screen.
    static func inbox(of cli: PlatformCLI, user: String, showing text: String) throws -> TmuxSession {
        let session = try cli.terminal()
        try session.waitFor(text: "5 Deliveries", timeout: 30)
        try session.sendKeys("4", ":")
        try session.sendLiteral("user \(user)")
        try session.sendKeys("Enter")
        try session.waitFor(text: text, timeout: 10)
        return session
    }

    /// The title of the open message: the reader's first line, under the rule that splits it from the list.
    static func openTitle(in screen: String) -> String? {
        guard screen.contains("esc closes") else { return nil }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard let rule = lines.firstIndex(where: { $0.hasPrefix("│───") }), rule + 1 < lines.count else { return nil }
        return lines[rule + 1].trimmingCharacters(in: CharacterSet(charactersIn: "│ "))
    }

    @Test func readingAMessageLowersTheUnreadCountOnScreen() throws {
        let herald = try HeraldBinary.url()
        let tempDir = try TempDir("e2e-inbox")
        let home = tempDir.url
        let session = try TmuxSession(command: [herald.path, "--demo"], width: 100, height: 30, environment: [
            "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
        ])
        defer { session.kill() }
        try session.waitFor(text: "Contacts", timeout: 30)
        try session.sendKeys("4")
        let before = try session.waitUntil(timeout: 20, "the inbox counts") { Self.unread(in: $0) != nil && !$0.contains("loading…") }
        let unread = try #require(Self.unread(in: before))
        #expect(unread > 0)
        // The newest message is unread (●); opening it marks it seen.
        #expect(before.contains(" ● "))
        try session.sendKeys("Enter")
        // (The demo may mark another message seen meanwhile: the count drops by at least one.)
        // The status bar is redrawn from the same count a moment later: waited for, as a person would see it settle.
        let after = try session.waitUntil(timeout: 10, "the message to open, the unread count to drop and the status bar to agree") {
            guard $0.contains("esc closes"), let now = Self.unread(in: $0), now < unread else { return false }
            return $0.contains("│ \(now) unread")
        }
        let now = try #require(Self.unread(in: after))
        #expect(after.contains("│ \(now) unread"))          // the status bar agrees
        try session.sendKeys("q")                                  // closes the open message first
        try session.waitUntil(timeout: 10, "the message to close") { !$0.contains("esc closes") }
        try session.sendKeys("q")
        // A demo without --data-dir is thrown away on quit: Herald says so and asks.
        let asked = try session.waitUntil(timeout: 10, "the quit question") { $0.contains("Quit Herald?") }
        #expect(asked.contains("thrown away"))
        try session.sendKeys("y")
        try session.waitUntil(timeout: 10, "herald to exit") { _ in (try? session.hasExited()) == true }
    }

    @Test func aSixtyLineMessageIsReadToItsEndWithSpaceAndJOpensTheNext() throws {
        let cli = try PlatformCLI()
        let body = (1...60).map { "line \($0) of the long message" }.joined(separator: "\n")
        try cli.ok(["sandbox", "push-inbox", "--user", "ana", "--title", "Short one", "--body", "hello"])
        try cli.ok(["sandbox", "push-inbox", "--user", "ana", "--title", "Long read", "--body", body])
        let session = try Self.inbox(of: cli, user: "ana", showing: "Long read")
        defer { session.kill() }
        try session.sendKeys("Enter")
        let first = try session.waitFor(text: "more lines below", timeout: 10)
        #expect(first.contains("line 1 of the long message"))
        #expect(!first.contains("line 60 of"))
        var screen = first
        for _ in 0..<10 where screen.contains("more lines below") || screen.contains("more line below") {
            try session.sendKeys("Space")
            Thread.sleep(forTimeInterval: 0.3)
            screen = try session.capture()
        }
        #expect(screen.contains("line 60 of the long message"))
        #expect(!screen.contains("below ·"))
        try session.sendKeys("g")
        try session.waitFor(text: "line 1 of the long message", timeout: 5)
        try session.sendKeys("J")
        let next = try session.waitFor(text: "hello", timeout: 5)
        #expect(next.contains("Short one"))
    }

    @Test func nAfterASearchOpensTheNextMatchAndQClosesHelpBeforeQuitting() throws {
        let cli = try PlatformCLI()
        for title in ["Team lunch", "Weekly report", "Lunch menu", "Invoice", "Lunch again"] {
            try cli.ok(["sandbox", "push-inbox", "--user", "ana", "--title", title, "--body", "about: \(title.lowercased())"])
        }
        let session = try Self.inbox(of: cli, user: "ana", showing: "Invoice")
        defer { session.kill() }
        try session.sendKeys("/")
        try session.sendLiteral("lunch")
        try session.sendKeys("Enter")
        try session.waitFor(text: "3 matches", timeout: 10)
        let lunches = ["Team lunch", "Lunch menu", "Lunch again"]
        // The cursor is on a match: open it, close it, n, open the next: another lunch.
        try session.sendKeys("Enter")
        let first = try session.waitUntil(timeout: 10, "a lunch message open") { Self.openTitle(in: $0).map(lunches.contains) == true }
        let firstTitle = try #require(Self.openTitle(in: first))
        try session.sendKeys("q")
        try session.waitUntil(timeout: 10, "the message to close") { !$0.contains("esc closes") }
        try session.sendKeys("n", "Enter")
        let second = try session.waitUntil(timeout: 10, "the next message open") { Self.openTitle(in: $0) != nil }
        let secondTitle = try #require(Self.openTitle(in: second))
        #expect(lunches.contains(secondTitle) && secondTitle != firstTitle, "\(firstTitle) then \(secondTitle)")
        try session.sendKeys("q")
        try session.waitUntil(timeout: 10, "the message to close") { !$0.contains("esc closes") }
        // q closes help first; Herald keeps running on the Inbox.
        try session.sendKeys("?")
        try session.waitFor(text: "Keys — 4 Inbox", timeout: 10)
        try session.sendKeys("q")
        let back = try session.waitUntil(timeout: 10, "help to close") { !$0.contains("Keys — 4 Inbox") }
        #expect(back.contains("Inbox — ana"))
        #expect(try !session.hasExited())
        try session.sendKeys("q")
        try session.waitUntil(timeout: 10, "herald to exit") { _ in (try? session.hasExited()) == true }
    }
}
