import Foundation
import HeraldTestKit
import HeraldCore
import HeraldEngine
import HeraldServices
import HeraldTUI
import HeraldViewModels
import Testing
import HeraldEmbedded

@Suite struct InboxPaneTests {
    let utc = TimeZone(identifier: "UTC")!

    func pane(_ ws: WorkspaceHarness, _ effects: EffectPump) -> InboxPane {
        InboxPane(model: InboxViewModel(service: ws.workspace.inbox, context: effects.context(), user: "ana",
                                        dates: InboxDateParser(timeZone: utc)), timeZone: utc)
    }

    @Test func listMarksUnreadAndHostileTextNeverReachesTheScreen() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)       // 2023-11-14 22:13:20 UTC
        let engine = ws.workspace.engine
        try await engine.pushInbox(user: "ana", topic: "news", title: "Old news", body: "Already read", at: t0, seen: true)
        try await engine.pushInbox(user: "ana", topic: "promo", title: "\u{1B}]0;pwned\u{07}Deal",
                                   body: "\u{1B}[31mRED\u{1B}[0m text\u{1B}[2J\u{9B}1;1H end", at: t0.addingTimeInterval(60))
        try await engine.pushInbox(user: "ana", topic: nil, title: "日本語 ok", body: "wide 🎉 body", at: t0.addingTimeInterval(120))
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        var canvas = Canvas(size: Size(width: 80, height: 12))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        let expected = """
        ┌ Inbox — ana ─────────────────────────────────────────────────────────────────┐
        │Topic: all   Dates: any time                                                  │
        │3 messages, 2 unread                                                          │
        │ ● 2023-11-14 22:15  日本語 ok — wide 🎉 body                                 │
        │ ● 2023-11-14 22:14  [promo]    Deal — RED text end                           │
        │   2023-11-14 22:13  [news]     Old news — Already read                       │
        │                                                                              │
        """
        #expect(canvas.rows.prefix(7).joined(separator: "\n") == expected)
        let all = canvas.cells.map { String($0.character) }.joined()
        for forbidden in ["\u{1B}", "\u{07}", "\u{9B}", "[31m", "]0;", "pwned", "[2J"] {
            #expect(!all.contains(forbidden), "\(forbidden.debugDescription) reached the canvas")
        }
        // The unread mark is drawn in the accent style; read rows have none.
        let mark = try #require(canvas.find("●"))
        #expect(canvas.cell(x: mark.x, y: mark.y)?.style.role == .accent)
    }

    @Test func aShortFirstPageOnATallWindowIsFilledByTheLayoutPassNotByAFrame() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        for i in 0..<5 {
            try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Message \(i)", body: "b", at: t0.addingTimeInterval(Double(i)))
        }
        let effects = EffectPump()
        let pane = InboxPane(model: InboxViewModel(service: ws.workspace.inbox, context: effects.context(), user: "ana",
                                                   filter: InboxFilter(limit: 2), dates: InboxDateParser(timeZone: utc)), timeZone: utc)
        pane.didAppear()
        await effects.settle()
        #expect(pane.model.messages.count == 2 && pane.model.hasMore)
        var canvas = Canvas(size: Size(width: 80, height: 12))
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(effects.queue.inFlight == 0)                        // a frame asks for nothing
        pane.layout(in: canvas.bounds)
        #expect(effects.queue.inFlight == 1)                        // the layout pass sees room for more
        await effects.settle()
        pane.layout(in: canvas.bounds)
        await effects.settle()
        #expect(pane.model.messages.count == 5)
    }

    @Test func openingAMessageShowsItAndTheUnreadCountDrops() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: "news", title: "Hello", body: "Line one\nline two", at: t0)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: "news", title: "Older", body: "x", at: t0.addingTimeInterval(-60))
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        #expect(pane.handle(action: .open))
        var canvas = Canvas(size: Size(width: 80, height: 20))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(canvas.rows[2].contains("2 messages, 1 unread"))
        #expect(canvas.find("Line one") != nil)
        #expect(canvas.find("line two") != nil)
        #expect(canvas.find("seen · esc closes") != nil)
        await effects.settle()
        #expect(pane.handle(action: .back))
        #expect(pane.model.opened == nil)
    }

    @Test func slashFindsAMessageAndNWalksTheMatchesWithoutHidingAny() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        for (i, title) in ["Invoice March", "Party", "invoice April", "Hello"].enumerated() {
            try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: title, body: "b", at: t0.addingTimeInterval(Double(-60 * i)))
        }
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        #expect(pane.model.messages.map(\.title) == ["Invoice March", "Party", "invoice April", "Hello"])
        _ = pane.handle(action: .last)
        #expect(pane.handle(action: .search))
        for c in "invoice" { _ = pane.handle(unboundKey: .char(c)) }
        #expect(pane.model.cursor == 0)                // from the last row it wraps to the first match
        _ = pane.handle(unboundKey: .enter)
        #expect(pane.handle(action: .nextMatch))
        #expect(pane.model.cursor == 2)
        #expect(pane.handle(action: .nextMatch))
        #expect(pane.model.cursor == 0)
        #expect(pane.handle(action: .previousMatch))
        #expect(pane.model.cursor == 2)
        #expect(pane.model.messages.count == 4)
    }

    @Test func anOpenMessageScrollsAndSaysWhatIsBelowAndAMarksAllRead() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        let body = (1...40).map { "row \($0)" }.joined(separator: "\n")
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Long", body: body, at: t0)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Other", body: "x", at: t0.addingTimeInterval(-60))
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        func draw() -> String {
            var canvas = Canvas(size: Size(width: 60, height: 30))
            pane.layout(in: canvas.bounds)
            pane.render(into: &canvas, in: canvas.bounds, theme: theme)
            return canvas.snapshot()
        }
        #expect(pane.handle(action: .open))
        func below(_ screen: String) -> Int? {
            guard let r = screen.range(of: #"▼ \d+ more line"#, options: .regularExpression) else { return nil }
            return Int(screen[r].dropFirst(2).split(separator: " ").first ?? "")
        }
        var screen = draw()
        let hidden = try #require(below(screen))
        #expect(hidden > 10)
        #expect(pane.handle(action: .last))
        screen = draw()
        #expect(screen.contains("row 40") && !screen.contains("below ·"))
        #expect(pane.handle(action: .first))
        #expect(pane.handle(action: .moveDown))
        #expect(below(draw()) == hidden - 1)
        #expect(pane.handle(action: .pageDown))
        #expect(try #require(below(draw())) < hidden - 5)
        #expect(pane.handle(action: .nextMessage))
        #expect(pane.model.opened?.title == "Other")
        await effects.settle()
        #expect(pane.model.counts.unread == 0)
        #expect(pane.handle(action: .markAllSeen))
    }

    @Test func everyKeyTheHelpListsForTheInboxDoesSomethingHere() async throws {
        let ws = try await WorkspaceHarness.screens()
        let t0 = Date(timeIntervalSince1970: 1_700_000_000)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: "news", title: "One", body: "https://example.com/x", at: t0)
        try await ws.workspace.engine.pushInbox(user: "ana", topic: "promo", title: "Two", body: "b", at: t0.addingTimeInterval(-60))
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        let listed = Set(KeyBindings.defaults.filter { binding in
            binding.contexts.contains { KeyContext.inbox.chain.contains($0) && $0 != .global }
        }.map(\.action)).union([.reload])
        for action in listed.sorted(by: { $0.rawValue < $1.rawValue }) where ![.back, .quit].contains(action) {
            #expect(pane.handle(action: action), "\(action.rawValue) is listed in the Inbox's help but does nothing")
            await effects.settle()
            if pane.keyContext == .editor { _ = pane.handle(action: .back) }
        }
    }

    @Test func theDateFieldsTakeTypedDatesAndShowWhatIsWrong() async throws {
        let ws = try await WorkspaceHarness.screens()
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "A", body: "a", at: Date(timeIntervalSince1970: 1_700_000_000))
        let effects = EffectPump()
        let pane = pane(ws, effects)
        pane.didAppear()
        await effects.settle()
        #expect(pane.handle(action: .dateRange))
        #expect(pane.keyContext == .editor)
        for c in "2023-99-01" { _ = pane.handle(unboundKey: .char(c)) }
        _ = pane.handle(unboundKey: .enter)
        var canvas = Canvas(size: Size(width: 80, height: 10))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(canvas.rows[1].contains("From: 2023-99-01"))
        #expect(canvas.find("is not a date") != nil)
        for _ in 0..<5 { _ = pane.handle(unboundKey: .backspace) }
        for c in "11-15" { _ = pane.handle(unboundKey: .char(c)) }
        _ = pane.handle(unboundKey: .enter)
        #expect(pane.keyContext == .inbox)
        await effects.settle()
        canvas = Canvas(size: Size(width: 80, height: 10))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        #expect(canvas.rows[1].contains("Dates: 2023-11-15 → now"))
        #expect(canvas.find("No message matches the filter") != nil)
    }
}
