import Foundation
import Testing

/// The terminal UI driven like a person would, in tmux, with the real binary.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UITests {
    @Test func startsOnTheDemoShowsHelpAndQuitsRestoringTheTerminal() async throws {
        let ui = try await HeraldUISession.start()
        let firstFrame = try await ui.waitForFirstFrame()
        print("figure: time to first frame (launch → full frame in tmux): \(Int(firstFrame * 1000)) ms")
        var screen = try await ui.screen()
        #expect(screen.contains("Contacts —"))
        #expect(screen.contains("demo"))
        try await ui.keys("?")
        screen = try await ui.waitFor("Keys — 1 Contacts")
        #expect(screen.contains("Invite the selected people"))
        try await ui.keys("Escape")
        try await ui.waitUntil("help to close") { !$0.contains("Keys — 1 Contacts") }
        try await ui.keys("q")
        // the process exits with 0 and the terminal is back to the shell's screen (no Herald frame left)
        let after = try await ui.waitFor("herald-exit=0")
        #expect(!after.contains("1 Contacts │ 2 Share"))
        #expect(!FileManager.default.fileExists(atPath: ui.dataDir.path) || ui.log.contains("ui closed"))
    }

    @Test func searchSelectAndInviteWithWhatTheComposerIsSetTo() async throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("Ana", "Horvat", "+385911234567"), ("Bruno", "Kovač", "+385912223333")])
        let session = try cli.terminal()
        defer { session.kill() }
        try session.waitFor(text: "5 Deliveries", timeout: 30)
        try session.sendKeys("/")
        try session.sendLiteral("ana")
        _ = try session.waitUntil(timeout: 10, "search results") { $0.contains("/ ana") && $0.contains("Ana Horvat") }
        try session.sendKeys("Enter", "Space")
        try session.waitFor(text: "1 selected", timeout: 10)
        // I sends with what the Composer is set to: its confirmation shows the sender, the message and the count.
        try session.sendKeys("I")
        let asked = try session.waitFor(text: "Send 1 SMS invitation (", timeout: 10)
        #expect(asked.contains("From Herald:"))
        #expect(asked.contains("Hi Ana Horvat"))
        try session.sendKeys("Enter")
        let after = try session.waitUntil(timeout: 15, "the invitation result") { $0.contains("sent 1 invitation, bulk ") }
        #expect(!after.contains("not sent"))
        // Asked again, the number is left out: it is already on its way.
        try session.sendKeys("1", "I")
        try session.waitFor(text: "every number is already invited", timeout: 10)
    }

    @Test func deliveryStatusesChangeOnScreenWithNoKeyPressed() async throws {
        // A bulk sent after the pane is up (the demo's own bulks may have settled already on a slow machine):
        // its row must change by itself as delivery reports arrive.
        let ui = try await HeraldUISession.start(timeScale: 4)
        try await ui.waitForFirstFrame()
        try await ui.keys("5")
        let before = try await ui.waitUntil("the Deliveries pane", timeout: 20) { $0.contains("Deliveries —") && $0.contains("Progress") }
        let count = Self.bulkCount(before)
        let sent = try await ui.runHerald(["send", "--data-dir", ui.dataDir.path, "--to", "+385911234501", "+385911234502",
                                           "+385911234503", "--json"])
        #expect(sent.status == 0, "herald send failed: \(sent.output)")
        let first = try await ui.waitUntil("the new bulk", timeout: 10) { Self.bulkCount($0) == count + 1 }
        // no key from here on
        let changed = try await ui.waitUntil("a status count to change", timeout: 30) { screen in
            Self.tableRows(screen) != Self.tableRows(first)
        }
        #expect(changed.contains("Progress"))
    }

    @Test func yCopiesTheBulkIdAndInABulkTheMessageIdThroughOSC52() async throws {
        let ui = try await HeraldUISession.start()
        try await ui.waitForFirstFrame()
        try await ui.keys("5")
        _ = try await ui.waitUntil("a bulk in the Deliveries pane", timeout: 20) { $0.contains("Deliveries —") && $0.contains("Progress") }
        try await ui.keys("y")
        let shown = try await ui.waitFor("copied the bulk id")
        let bulkId = try await ui.pasteBuffer()
        #expect(bulkId.count == 36 && bulkId.split(separator: "-").count == 5)
        #expect(shown.contains(String(bulkId.prefix(8))))
        #expect(shown.contains("copied the bulk id through the terminal (OSC 52"), "\(shown)")
        try await ui.keys("Enter")
        _ = try await ui.waitUntil("the bulk's recipients", timeout: 10) { $0.contains("Updated") && $0.contains("recipients:") }
        try await ui.keys("y")
        _ = try await ui.waitFor("copied the message id")
        let messageId = try await ui.pasteBuffer()
        #expect(!messageId.isEmpty && messageId != bulkId)
    }

    @Test func aBulkSentFromAnotherProcessAppearsInDeliveries() async throws {
        let ui = try await HeraldUISession.start()
        try await ui.waitForFirstFrame()
        try await ui.keys("5")
        let before = try await ui.waitFor("Deliveries —")
        let count = Self.bulkCount(before)
        let sent = try await ui.runHerald(["send", "--data-dir", ui.dataDir.path, "--to", "+385911234567", "--json"])
        #expect(sent.status == 0, "herald send failed: \(sent.output)")
        let start = Date()
        try await ui.waitUntil("the new bulk", timeout: 5) { Self.bulkCount($0) == count + 1 }
        print("figure: bulk from a second process visible after \(Int(Date().timeIntervalSince(start) * 1000)) ms")
    }

    @Test func resizesDownToEightyByTwentyFourAndBelowEveryPaneStillDraws() async throws {
        let ui = try await HeraldUISession.start()
        try await ui.waitForFirstFrame()
        try await ui.resize(width: 80, height: 24)
        let small = try await ui.waitUntil("an 80×24 frame") { screen in
            let lines = screen.components(separatedBy: "\n")
            return lines.count >= 24 && lines[0].contains("1 Contacts") && lines[23].contains("embedded")
        }
        #expect(small.contains("Contacts —"))
        // Below 80×24 Herald degrades (short tabs, no key hints) instead of refusing; every pane draws.
        try await ui.resize(width: 50, height: 14)
        _ = try await ui.waitUntil("the 50×14 frame") { $0.contains("1 Con │ 2 Sha") }
        for (key, title) in [("1", "Contacts —"), ("2", "Share"), ("3", "Composer —"), ("4", "Inbox —"), ("5", "Deliveries —")] {
            try await ui.keys(key)
            let screen = try await ui.waitFor(title)
            #expect(screen.contains("1 Con │"))
        }
        #expect(try await ui.hasExited() == false)
        try await ui.resize(width: 39, height: 11)
        try await ui.waitFor("Terminal too small: 39×11")
        try await ui.resize(width: 100, height: 30)
        try await ui.waitFor("Deliveries —")
        #expect(try await ui.hasExited() == false)
    }

    @Test func themeSwitchesLiveFromThePalette() async throws {
        let ui = try await HeraldUISession.start()
        try await ui.waitForFirstFrame()
        let before = try await ui.screenWithColours()
        try await ui.keys(":")
        try await ui.type("theme light")
        try await ui.keys("Enter")
        let status = try await ui.waitUntil("the light theme") { $0.components(separatedBy: "\n").last { !$0.isEmpty }?.contains("light") == true }
        #expect(status.contains("light"))
        let after = try await ui.screenWithColours()
        #expect(after != before)              // colours changed
        try await ui.keys(":")
        try await ui.type("nonsense")
        try await ui.keys("Enter")
        try await ui.waitFor("unknown command")
    }

    @Test func measuresKeypressToScreen() async throws {
        let ui = try await HeraldUISession.start()
        try await ui.waitForFirstFrame()
        var samples: [TimeInterval] = []
        for _ in 0..<5 {
            samples.append(try await ui.keypressToScreen("5", shows: "Deliveries —"))
            samples.append(try await ui.keypressToScreen("1", shows: "Contacts —"))
        }
        samples.sort()
        print("figure: keypress-to-screen (tmux send-keys → text visible), median \(Int(samples[samples.count / 2] * 1000)) ms, max \(Int((samples.last ?? 0) * 1000)) ms")
        #expect(samples[samples.count / 2] < 0.5)
    }

    /// The table rows of the Deliveries pane (the lines with a progress bar).
    static func tableRows(_ screen: String) -> [String] {
        screen.components(separatedBy: "\n").filter { $0.contains("█") || $0.contains("▏") || $0.range(of: #"\s+\d+\s+\d+\s+\d+\s+\d+\s"#, options: .regularExpression) != nil }
    }

    /// "Deliveries — N bulks" → N.
    static func bulkCount(_ screen: String) -> Int {
        guard let range = screen.range(of: #"Deliveries — (\d+) bulk"#, options: .regularExpression) else { return -1 }
        let digits = screen[range].filter(\.isNumber)
        return Int(digits) ?? -1
    }
}
