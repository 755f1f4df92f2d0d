import Foundation
import Testing

/// The Replies pane in the real TUI, in tmux, on a demo workspace: replies sent by another process (`herald sandbox
/// reply` on the same data folder) show in the list, the status bar's count and the open thread with no key pressed;
/// `r` answers, the question is confirmed, and the answer shows in the thread as sent.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux is not installed: end-to-end tests need it (apt-get install tmux)"))
struct UIConversationsTests {
    static let number = "+385911234577"

    /// `herald sandbox reply` as another process on the session's data folder.
    static func reply(_ ui: HeraldUISession, _ text: String) async throws {
        let run = try await ui.runHerald(["sandbox", "reply", "--data-dir", ui.dataDir.path, "--from", number, "--text", text])
        #expect(run.status == 0, "\(run.output)")
    }

    /// The status line (the last line that is not blank).
    static func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map(String.init) ?? ""
    }

    @Test func aReplyFromAnotherProcessShowsLiveAndRAnswersItInTheThread() async throws {
        let ui = try await HeraldUISession.start(width: 120, height: 32)
        try await ui.waitForFirstFrame()
        try await ui.waitFor("6 Replies")
        try await ui.keys("6")
        try await ui.waitFor("No replies yet. When someone answers an invitation, the conversation shows here.", timeout: 15)

        // A reply from another process: the list and the status bar's count, with no key pressed.
        try await Self.reply(ui, "Who is this?")
        let listed = try await ui.waitUntil("the reply in the list and the count in the status bar", timeout: 15) {
            $0.contains("\(Self.number) (unknown)") && Self.statusLine($0).contains("│ 1 unread reply ")
        }
        let row = try #require(listed.split(separator: "\n").first { $0.contains("\(Self.number) (unknown)") })
        #expect(row.contains("● 1") && row.contains("← Who is this?"), "\(row)")

        // Enter opens the thread and marks it seen: the count goes.
        try await ui.keys("Enter")
        try await ui.waitFor("\(Self.number) (unknown: a adds it to the address book)", timeout: 10)
        try await ui.waitUntil("the count to go once the thread is seen", timeout: 10) { !Self.statusLine($0).contains("unread repl") }

        // Another reply while the thread is open: the thread and the count, with no key pressed.
        try await Self.reply(ui, "Are you there?")
        let open = try await ui.waitUntil("the new reply in the open thread and the count", timeout: 15) {
            $0.contains("  Are you there?") && $0.contains("· 1 new reply") && Self.statusLine($0).contains("│ 1 unread reply ")
        }
        let lines = open.split(separator: "\n").map(String.init)
        let newHead = try #require(lines.lastIndex { $0.contains("← ") && $0.contains("● new") })
        #expect(lines[newHead + 1].contains("Are you there?"), "\(open)")

        // r: the editor with its meter and the sender; ctrl-s asks; Enter sends.
        try await ui.keys("r")
        try await ui.waitFor("Answer to \(Self.number) — ctrl-s sends · esc keeps it for later")
        try await ui.type("Hi, it's Marko from the club")
        try await ui.waitFor("GSM-7 · 1 SMS · 28 chars · 132 left")
        try await ui.keys("C-s")
        try await ui.waitFor("Answer \(Self.number)?")
        try await ui.waitFor("“Hi, it's Marko from the club”")
        try await ui.keys("Enter")
        try await ui.waitFor("answer sent to \(Self.number)", timeout: 15)
        let sent = try await ui.waitUntil("the answer in the thread as sent", timeout: 15) { screen in
            screen.split(separator: "\n").contains { $0.hasSuffix("Hi, it's Marko from the club │") }
        }
        let shown = sent.split(separator: "\n").map(String.init)
        let answer = try #require(shown.lastIndex { $0.hasSuffix("Hi, it's Marko from the club │") })
        #expect(shown[answer - 1].hasSuffix("→ │"), "the answer's head, flush right with its status: \(sent)")
        #expect(!sent.contains("Answer to \(Self.number)"), "the editor closed")

        // The platform has it too: the thread another process reads ends with the answer, sent.
        let show = try await ui.runHerald(["replies", "show", Self.number, "--json", "--data-dir", ui.dataDir.path])
        #expect(show.status == 0 && show.output.contains("Hi, it's Marko from the club"), "\(show.output)")
    }
}
