import Foundation
import HeraldTestKit
import HeraldCore
import HeraldEngine
import HeraldServices
@testable import HeraldTUI
import HeraldViewModels
import Testing
import HeraldEmbedded

/// Links you can click: which cells of a frame are links (the spans the terminal wraps in OSC 8), when a terminal
/// gets them, and the notices' bell and OSC 9 / 777, none of which lets a control character through.
@Suite struct TerminalLinksTests {
    static let esc = "\u{1B}"

    @Test func aURLIsASpanWithoutTheSentencesFullStop() {
        var canvas = Canvas(size: Size(width: 40, height: 3))
        canvas.put("see https://x.example/r/AbCd. ok", x: 1, y: 1)
        #expect(canvas.links.isEmpty)
        canvas.markLinks(in: canvas.bounds)
        #expect(canvas.links == [LinkSpan(y: 1, x: 5, width: 24, url: "https://x.example/r/AbCd", text: "https://x.example/r/AbCd")])
        canvas.clear()
        #expect(canvas.links.isEmpty)          // each frame marks its own
    }

    @Test func aWrappedURLLinksBothPartsToTheWholeAndACutOneIsLeftPlain() {
        var canvas = Canvas(size: Size(width: 20, height: 4))
        let area = Rect(x: 0, y: 0, width: 16, height: 4)
        for (i, line) in WrappedText.lines("https://x.example/long/path", width: 16).enumerated() { canvas.put(line, x: 0, y: i) }
        canvas.put("http://cut.exa…", x: 0, y: 3)
        canvas.markLinks(in: area)
        #expect(canvas.links.map(\.url) == Array(repeating: "https://x.example/long/path", count: 2))
        #expect(canvas.links.map(\.y) == [0, 1])
        // A URL running off the area's last row would link to a part of itself: plain.
        var last = Canvas(size: Size(width: 16, height: 1))
        last.put("https://x.example/more", x: 0, y: 0)
        last.markLinks(in: last.bounds)
        #expect(last.links.isEmpty)
    }

    @Test func onlyPrintableASCIIHTTPURLsOfBoundedLengthAreTargets() {
        #expect(Canvas.linkTarget("https://x.example/a?b=c&d=e#f") == "https://x.example/a?b=c&d=e#f")
        #expect(Canvas.linkTarget("https://x.example/\u{1B}]8;;evil") == nil)
        #expect(Canvas.linkTarget("https://x.example/\u{07}") == nil)
        #expect(Canvas.linkTarget("javascript:alert(1)") == nil)
        #expect(Canvas.linkTarget("file:///etc/passwd") == nil)
        #expect(Canvas.linkTarget("https://") == nil)
        #expect(Canvas.linkTarget("https://x.example/" + String(repeating: "a", count: 3000)) == nil)
        #expect(Canvas.linkTarget("https://bücher.example/") == nil)
    }

    @Test func theBytesWrapEachSpanAndSkipOneSomethingDrewOver() {
        var canvas = Canvas(size: Size(width: 40, height: 3))
        canvas.put("https://x.example/a", x: 2, y: 0)
        canvas.put("https://x.example/b", x: 2, y: 2)
        canvas.markLinks(in: canvas.bounds)
        canvas.put("a modal over it", x: 2, y: 2)
        let text = String(decoding: OSC8.bytes(canvas.links, canvas: canvas, theme: plainTheme, depth: .none), as: UTF8.self)
        #expect(text.hasPrefix(Self.esc + "7" + Self.esc + "[1;3H"))
        #expect(text.contains(Self.esc + "]8;;https://x.example/a" + Self.esc + "\\https://x.example/a" + Self.esc + "]8;;" + Self.esc + "\\"))
        #expect(!text.contains("x.example/b"))
        #expect(text.hasSuffix(Self.esc + "8"))
    }

    @Test func linksAreOnWhereTheTerminalShowsThemAndNeverWithNoColorOrADumbTerminal() {
        #expect(HyperlinkSetting.auto.isEnabled(environment: ["TERM": "xterm-kitty"]))
        #expect(HyperlinkSetting.auto.isEnabled(environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"]))
        #expect(HyperlinkSetting.auto.isEnabled(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7600"]))
        #expect(!HyperlinkSetting.auto.isEnabled(environment: ["TERM": "xterm-256color"]))
        #expect(!HyperlinkSetting.auto.isEnabled(environment: ["TERM": "tmux-256color", "TERM_PROGRAM": "tmux", "VTE_VERSION": "7600"]))
        #expect(HyperlinkSetting.on.isEnabled(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/x"]))
        #expect(!HyperlinkSetting.on.isEnabled(environment: ["TERM": "xterm-kitty", "NO_COLOR": "1"]))
        #expect(!HyperlinkSetting.on.isEnabled(environment: ["TERM": "dumb"]))
        #expect(!HyperlinkSetting.on.isEnabled(environment: [:]))
        #expect(!HyperlinkSetting.off.isEnabled(environment: ["TERM": "xterm-kitty"]))
    }

    @Test func aNoticeIsOSC9Or777WhereKnownElseTheBellAndCarriesNoControlCharacter() {
        #expect(TerminalNotification.detect(environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .osc9)
        #expect(TerminalNotification.detect(environment: ["TERM": "xterm-kitty"]) == .osc9)
        #expect(TerminalNotification.detect(environment: ["TERM": "foot"]) == .osc777)
        #expect(TerminalNotification.detect(environment: ["TERM": "rxvt-unicode-256color"]) == .osc777)
        #expect(TerminalNotification.detect(environment: ["TERM": "xterm-kitty", "TMUX": "/tmp/t"]) == .bell)
        #expect(TerminalNotification.detect(environment: ["TERM": "xterm-256color"]) == .bell)
        #expect(TerminalNotification.bell.bytes(title: "t", body: "b") == [0x07])
        let title = "bulk\u{1B}]0;pwned\u{07}; done", body = "x\u{9B}2J\ny" + String(repeating: "z", count: 500)
        for kind in [TerminalNotification.osc9, .osc777] {
            let bytes = kind.bytes(title: title, body: body)
            let payload = bytes.dropFirst(2).dropLast()            // ESC ] … BEL
            #expect(Array(bytes.prefix(2)) == [0x1B, 0x5D] && bytes.last == 0x07)
            #expect(!payload.contains { $0 < 0x20 || $0 == 0x7F }, "\(kind)")
            #expect(!String(decoding: payload, as: UTF8.self).unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
            #expect(payload.count < 400)
        }
        #expect(String(decoding: TerminalNotification.osc777.bytes(title: "a;b", body: "c;d"), as: UTF8.self) == Self.esc + "]777;notify;a,b;c;d\u{07}")
    }

    /// The referral link and the share URLs of the Share pane are link spans of its frame.
    @Test func theSharePanesLinksAreSpansOfItsFrame() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let model = ShareViewModel(share: ws.workspace.share, composer: nil, emailSender: nil, mailProgram: nil,
                                   context: effects.context(), settings: ShareSettings(referrer: "Ana", sender: "Herald"))
        let pane = SharePane(model: model)
        pane.didAppear()
        await effects.settle()
        let url = try #require(model.link?.url)
        #expect(pane.handle(action: .moveDown) && pane.handle(action: .moveDown))   // onto "Referral link"
        let terminal = FakeTerminal(size: Size(width: 100, height: 21))
        var canvas = Canvas(size: terminal.size)
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        terminal.present(canvas)
        let links = try #require(terminal.frames.last?.links)
        let referral = try #require(links.first { $0.url == url })
        #expect(canvas.find(url).map { ($0.x, $0.y) } ?? (-1, -1) == (referral.x, referral.y))
        #expect(links.contains { $0.url.hasPrefix("https://twitter.com/intent/tweet?") }, "\(canvas.snapshot())")
        #expect(links.allSatisfy { Canvas.linkTarget($0.url) == $0.url })
    }

    /// A link in an inbox message's body is a span of the frame that shows the message; the list shows none.
    @Test func aLinkInAnInboxBodyIsASpanOfTheFrame() async throws {
        let ws = try await WorkspaceHarness.screens()
        let utc = TimeZone(identifier: "UTC")!
        try await ws.workspace.engine.pushInbox(user: "ana", topic: nil, title: "Join",
                                                body: "Open https://herald.example/r/Zx12 to join.\n\u{1B}]8;;https://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\",
                                                at: Date(timeIntervalSince1970: 1_700_000_000))
        let effects = EffectPump()
        let pane = InboxPane(model: InboxViewModel(service: ws.workspace.inbox, context: effects.context(), user: "ana",
                                                   dates: InboxDateParser(timeZone: utc)), timeZone: utc)
        pane.didAppear()
        await effects.settle()
        let terminal = FakeTerminal(size: Size(width: 80, height: 20))
        var canvas = Canvas(size: terminal.size)
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        terminal.present(canvas)
        #expect(terminal.frames.last?.links.isEmpty == true)
        #expect(pane.handle(action: .open))
        canvas = Canvas(size: terminal.size)
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        terminal.present(canvas)
        let links = try #require(terminal.frames.last?.links)
        #expect(links.map(\.url) == ["https://herald.example/r/Zx12"])
        let row = try #require(canvas.rows.indices.first { $0 > 5 && canvas.rows[$0].contains("Open https://herald.example/r/Zx12 to join.") })
        let x = try #require(canvas.rows[row].range(of: "https://")).lowerBound.utf16Offset(in: canvas.rows[row])
        #expect(links.first.map { ($0.x, $0.y, $0.width) } ?? (0, 0, 0) == (x, row, 29))
    }
}
