import Foundation
import HeraldTestKit
import HeraldCore
import HeraldServices
@testable import HeraldTUI
import HeraldViewModels
import Testing

@Suite struct ConversationsPaneTests {
    let ana = WorkspaceHarness.mobile(1), stranger = WorkspaceHarness.mobile(2)

    /// A reply through the sandbox's carrier, waited for until the workspace published it.
    private func reply(_ ws: WorkspaceHarness, from number: String, _ text: String) async throws -> RepliesChange {
        let seen = PublishedReplies()
        let subscription = ws.workspace.bus.subscribe { if case .repliesChanged(let change) = $0 { seen.add(change) } }
        defer { subscription.cancel() }
        _ = try await #require(ws.workspace.connection.sandbox).receiveReply(from: number, text: text)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let change = seen.all.first(where: { $0.reply?.text == text }) { return change }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        Issue.record("no repliesChanged event for \(text.debugDescription)")
        throw CancellationError()
    }

    private func draw(_ pane: ConversationsPane, width: Int = 90, height: Int = 16) -> Canvas {
        var canvas = Canvas(size: Size(width: width, height: height))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        return canvas
    }

    @Test func theListMarksUnreadAndUnknownNumbersAndTheThreadPutsRepliesLeftAndSentRight() async throws {
        let ws = try await WorkspaceHarness.screens()
        try await ws.workspace.startFeed()        // the platform's events (replies) reach the bus
        try ws.person("Ana", "Horvat", numbers: [ana])
        _ = try await ws.workspace.invites.invite(numbers: [ana])
        _ = try await reply(ws, from: ana, "Who \u{1B}]0;pwned\u{07}is\u{1B}[2J this?")
        ws.clock.advance(by: 60)
        _ = try await reply(ws, from: stranger, "wrong number")
        let effects = EffectPump()
        let vm = ConversationsViewModel(service: ws.workspace.conversations, book: ws.book, readOnlyReason: nil,
                                        context: effects.context(clock: ws.clock))
        let pane = ConversationsPane(viewModel: vm, clock: ws.clock)
        await effects.settle()
        var canvas = draw(pane)
        var text = canvas.rows.joined(separator: "\n")
        #expect(canvas.rows[0].hasPrefix("┌ Replies — 2 conversations · 2 unread replies "))
        #expect(canvas.rows[1].contains(" ● 1  \(stranger) (unknown)") && canvas.rows[1].contains("← wrong number"), "\(text)")
        #expect(canvas.rows[2].contains(" ● 1  Ana Horvat") && canvas.rows[2].contains("← Who is this?"))
        let mark = try #require(canvas.find("●"))
        #expect(canvas.cell(x: mark.x, y: mark.y)?.style.role == .accent)
        // The footer offers a on the unknown number, and m and r.
        #expect(pane.footerHints.map(\.label) == ["open", "answer", "add to book", "seen", "unread only"])

        _ = pane.handle(action: .moveDown)
        #expect(pane.footerHints.map(\.label) == ["open", "answer", "seen", "unread only"], "Ana is in the book")
        _ = pane.handle(action: .open)
        await effects.settle()
        canvas = draw(pane)
        text = canvas.rows.joined(separator: "\n")
        #expect(canvas.rows[1].contains("Ana Horvat · \(ana)"))
        // The invitation sent, flush right with its status; the reply flush left under ←, sanitised.
        let sentHead = try #require(canvas.rows.firstIndex { $0.contains(" →") })
        let replyHead = try #require(canvas.rows.firstIndex { $0.contains("│ ← ") })
        #expect(sentHead < replyHead, "oldest first")
        #expect(canvas.rows[sentHead].hasSuffix("→ │"), "\(canvas.rows[sentHead])")
        #expect(canvas.rows[replyHead + 1].contains("│   Who is this?"))
        for forbidden in ["\u{1B}", "\u{07}", "pwned", "[2J"] { #expect(!text.contains(forbidden)) }
        #expect(vm.unreadTotal == 1, "opening the thread marked it seen")

        // r opens the editor with the meter and the sender under the thread.
        _ = pane.handle(action: Action("answer"))
        #expect(pane.keyContext == .editor)
        for c in "On my way" { _ = pane.handle(unboundKey: .char(c)) }
        canvas = draw(pane, height: 24)
        text = canvas.rows.joined(separator: "\n")
        #expect(text.contains("Answer to Ana Horvat (\(ana)) — ctrl-s sends · esc keeps it for later"))
        #expect(text.contains("GSM-7 · 1 SMS · 9 chars · 151 left"))
        #expect(text.contains("From Herald (alphanumeric) ⚠ the sender \"Herald\" is alphanumeric: people cannot reply"))
        _ = pane.handle(action: .send)
        #expect(pane.keyContext == .question)
        canvas = draw(pane, height: 24)
        text = canvas.rows.joined(separator: "\n")
        #expect(text.contains("Answer Ana Horvat (\(ana))?") && text.contains("“On my way”") && text.contains("[ Send (enter) ]"))
        _ = pane.handle(action: .pressButton)
        await effects.settle()
        canvas = draw(pane, height: 24)
        let answered = try #require(canvas.rows.lastIndex { $0.contains("On my way") })
        #expect(canvas.rows[answered].hasSuffix("On my way │"), "flush right: \(canvas.rows[answered])")
        #expect(canvas.rows[answered - 1].hasSuffix("→ │"))
    }

    @Test func threadLinesSanitiseWrapAndAlign() {
        let now = Date()
        let detail = ShownThread(number: "+385911000001", name: "Ana", entries: [
            ShownMessage(kind: .sent, messageId: "m1", at: now, text: "Come to the party", status: .deliveredToTerminal),
            ShownMessage(kind: .reply, messageId: "r1", at: now, text: "yes\u{1B}[31m red\nsecond line", seen: false),
        ], unread: 1, hasMore: false)
        let lines = ConversationsPane.threadLines(detail, width: 40, now: now)
        let time = WallClock.time(now)
        #expect(lines[0].text == "\(time) · \(DeliveryStatus.deliveredToTerminal.label) →")
        #expect(lines[0].indent + TerminalWidth.of(lines[0].text) == 40 && lines[0].role == .statusDelivered)
        #expect(lines[1].text == "Come to the party" && lines[1].indent == 40 - 17)
        #expect(lines[2].text.isEmpty)
        #expect(lines[3].text == "← \(time) ● new" && lines[3].indent == 0 && lines[3].role == .changed)
        #expect(lines[4].text == "yes red" && lines[4].indent == 2 && lines[4].bold)
        #expect(lines[5].text == "second line")
        #expect(!lines.contains { $0.text.contains("\u{1B}") })
    }

    @Test func aReadOnlyTerminalGreysTheKeysThatChange() {
        for action in ["answer", "add_number", "mark_conversation_seen"] {
            #expect(ReadOnlyKeys.changing.contains(Action(action)))
        }
        #expect(!ReadOnlyKeys.changing.contains(Action("unread_filter")))
    }
}

/// The replies a bus published, kept across threads.
nonisolated final class PublishedReplies: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [RepliesChange] = []
    func add(_ change: RepliesChange) { lock.withLock { changes.append(change) } }
    var all: [RepliesChange] { lock.withLock { changes } }
}
