import Foundation
import Testing

/// Names in scripts whose clusters are wider than one code point, drawn by the real binary in tmux and
/// measured by tmux itself: every name whole, and the columns after it where they are for a Latin name.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIWidthTests {
    @Test func aDevanagariNameAndAZWJEmojiAreDrawnWholeAndKeepTheColumnsAligned() throws {
        let cli = try PlatformCLI()
        _ = try cli.importContacts([("अमित", "पटेल", "+385911111111"), ("Kim", "👩‍👩‍👧 Family", "+385912222222"),
                                    ("Ana", "Horvat", "+385913333333")])
        let session = try cli.terminal()
        defer { session.kill() }
        // A frame reaches tmux in two writes: ncurses' cells, then the joined clusters over their stand-ins. A capture
        // between the two (a loaded machine) sees the stand-in, so the test waits for the frame to be complete.
        let screen = try session.waitUntil(timeout: 30, "the three people, the family whole") {
            $0.contains("5 Deliveries") && $0.contains("Horvat") && $0.contains("+385 91 111 1111") && $0.contains("👩‍👩‍👧 Family")
        }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let devanagari = try #require(lines.first { $0.contains("+385 91 111 1111") })
        let family = try #require(lines.first { $0.contains("+385 91 222 2222") })
        let latin = try #require(lines.first { $0.contains("+385 91 333 3333") })
        #expect(devanagari.contains("अमित पटेल"), "the vowel sign ि is drawn: \(devanagari)")
        #expect(family.contains("👩‍👩‍👧 Family"), "the family is drawn whole: \(family)")
        // Where tmux puts the number on each row: the width of what comes before it, measured by tmux.
        let numberColumns = try [(devanagari, "+385 91 111 1111"), (family, "+385 91 222 2222"), (latin, "+385 91 333 3333")]
            .map { line, number in try Self.tmuxWidth(of: String(line[..<line.range(of: number)!.lowerBound])) }
        #expect(Set(numberColumns).count == 1, "the number column moved: \(numberColumns)")
        // Each row ends at the pane's right border, in column 100.
        for line in [devanagari, family, latin] {
            #expect(try Self.tmuxWidth(of: line) == 100, "\(line)")
        }
        // The cursor moving over the row and off it again redraws parts of it: the family stays whole.
        for key in ["j", "j", "j", "k", "k", "k"] {
            try session.sendKeys(key)
            usleep(150_000)
            _ = try session.waitUntil(timeout: 5, "the family whole after \(key)") { screen in
                screen.split(separator: "\n").first { $0.contains("+385 91 222 2222") }?.contains("👩‍👩‍👧 Family") == true
            }
        }
    }

    /// Columns `text` takes in tmux: printed in a pane of its own with a marker after it, then the
    /// cursor column read once the marker is on the screen.
    static func tmuxWidth(of text: String) throws -> Int {
        let marker = "@@end"
        let pane = try TmuxSession(command: ["sh", "-c", "printf '%s%s' \"$1\" \"$2\"; sleep 30", "measure", text, marker],
                                   width: 300, height: 5)
        defer { pane.kill() }
        _ = try pane.waitFor(text: marker, timeout: 10)
        let column = try pane.display("#{cursor_x}").trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int(column) ?? -1) - marker.count
    }
}
