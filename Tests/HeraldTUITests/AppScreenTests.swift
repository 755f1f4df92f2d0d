import Foundation
import HeraldTestKit
import HeraldCore
import HeraldServices
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels

/// The shell with placeholder panes: tabs, keys, overlays, toasts, themes, sizes.
struct AppScreenTests {
    final class Harness {
        let clock = ManualClock()
        let app: AppViewModel
        let screen: AppScreen
        /// The screen's reads off the UI thread (theme names, a theme's file), handed back as the app loop does.
        let effects = EffectPump()
        var applied: [String] = []

        init(quitNote: String? = nil) throws {
            app = AppViewModel(workspaceName: "work", toasts: ToastBoard(clock: clock), clock: clock)
            let panes: [any Pane] = [
                PlaceholderPane(title: "Contacts", context: .contacts, message: ["contacts here"]),
                PlaceholderPane(title: "Share", context: .share, message: ["share here"]),
                PlaceholderPane(title: "Composer", context: .composer, message: ["composer here"]),
                PlaceholderPane(title: "Inbox", context: .inbox, message: ["inbox here"]),
                PlaceholderPane(title: "Deliveries", context: .deliveries, message: ["deliveries here"]),
                PlaceholderPane(title: "Replies", context: .replies, message: ["replies here"]),
            ]
            var box: Harness?
            screen = AppScreen(app: app, panes: panes, effects: effects.queue, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"),
                               themeLoader: ThemeLoader(userDirectory: nil, builtinDirectory: nil), clock: clock,
                               quitNote: quitNote, applyTheme: { box?.applied.append($0.name) })
            box = self
        }

        func draw(_ width: Int = 100, _ height: Int = 30) -> Canvas {
            var canvas = Canvas(size: Size(width: width, height: height))
            screen.layout(size: canvas.size)
            screen.render(into: &canvas, size: canvas.size)
            return canvas
        }

        func type(_ keys: Key...) { for key in keys { _ = screen.handle(key: key) } }
        func type(text: String) { for c in text { _ = screen.handle(key: .char(c)) } }
    }

    @Test func numberKeysTabAndClicksSwitchPanes() throws {
        let h = try Harness()
        #expect(h.draw().snapshot().contains("contacts here"))
        h.type(.char("5"))
        #expect(h.draw().snapshot().contains("deliveries here"))
        h.type(.char("6"))
        #expect(h.draw().snapshot().contains("replies here"))
        h.type(.tab)
        #expect(h.app.selectedPane == .contacts)
        h.type(.backTab, .backTab, .backTab)
        #expect(h.app.selectedPane == .inbox)
        let canvas = h.draw()
        let lines = canvas.snapshot().components(separatedBy: "\n")
        let x = try #require(lines[0].range(of: "2 Share")).lowerBound.utf16Offset(in: lines[0])
        h.type(.mouse(MouseEvent(.click, x: x + 1, y: 0)))
        #expect(h.app.selectedPane == .share)
        #expect(h.draw().snapshot().contains("share here"))
    }

    /// A pane that counts how often it was shown and left.
    @MainActor final class CountingPane: @MainActor LivePane {
        let title: String
        var appeared = 0, disappeared = 0
        init(_ title: String) { self.title = title }
        var keyContext: KeyContext { .contacts }
        var bindings: [PaneBinding] { [] }
        func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {}
        func didAppear() { appeared += 1 }
        func didDisappear() { disappeared += 1 }
    }

    @Test func everyJumpGoesThroughOneFocusPathSoAPaneHearsItOnce() throws {
        let clock = ManualClock()
        let app = AppViewModel(workspaceName: "work", toasts: ToastBoard(clock: clock), clock: clock)
        let panes = PaneID.allCases.map { CountingPane($0.name) }
        let screen = AppScreen(app: app, panes: panes, effects: EffectQueue { _ in },
                               theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"),
                               themeLoader: ThemeLoader(userDirectory: nil, builtinDirectory: nil), clock: clock, applyTheme: { _ in })
        #expect(panes[0].appeared == 1)
        // A view-model asks (Contacts' I, Share's SMS): the shell focuses once the event that asked is handled.
        app.requestFocus(.composer)
        _ = screen.handle(event: .service(.trackerState(TrackerState(nextPassAt: nil, bulks: [], queuedRecipients: 0))))
        #expect(app.selectedPane == .composer && panes[2].appeared == 1 && panes[0].disappeared == 1)
        _ = screen.handle(key: .char("3"))                                   // already there: nothing runs again
        #expect(panes[2].appeared == 1 && panes[2].disappeared == 0)
        _ = screen.handle(key: .tab)
        screen.run(commandLine: "pane deliveries")
        #expect(app.selectedPane == .deliveries)
        #expect(panes.map(\.appeared) == [1, 0, 1, 1, 1, 0] && panes.map(\.disappeared) == [1, 0, 1, 1, 0, 0])
    }

    @Test func helpIsGeneratedFromTheKeyTableAndEscClosesIt() throws {
        let h = try Harness()
        h.type(.char("?"))
        let text = h.draw().snapshot()
        #expect(text.contains("Keys — 1 Contacts"))
        #expect(text.contains("Invite the selected people"))
        h.type(.char("j"))                    // scrolls, does not close
        #expect(h.screen.help?.scroll == 1)
        h.type(.escape)
        #expect(h.screen.help == nil)
        #expect(!h.draw().snapshot().contains("Keys —"))
        #expect(!h.app.wantsToQuit)
    }

    @Test func paletteCompletesThemesAndSwitchesLive() async throws {
        let h = try Harness()
        h.type(.char(":"))
        await h.effects.settle()            // the theme names, listed off the UI thread
        h.type(text: "theme l")
        h.type(.tab)
        #expect(h.screen.palette?.text == "theme light")
        h.type(.enter)
        #expect(h.applied.isEmpty)          // the theme's file is read off the UI thread first
        await h.effects.settle()
        #expect(h.applied == ["light"])
        #expect(h.screen.theme.name == "light")
        #expect(h.draw().snapshot().contains("light"))
    }

    @Test func aThemeTypedFasterThanTheNamesAreListedStillSwitchesAndAnUnknownOneSaysSo() async throws {
        let h = try Harness()
        h.type(.char(":"))
        h.type(text: "theme light")
        h.type(.enter)                      // in the same batch of keys as the ':' (a paste, a quick typist)
        await h.effects.settle()
        #expect(h.applied == ["light"])
        h.type(.char(":"))
        h.type(text: "theme nosuch")
        h.type(.enter)
        await h.effects.settle()
        #expect(h.applied == ["light"] && h.app.toasts.notes.last?.level == .error)
        #expect(h.app.toasts.notes.last?.text.contains("nosuch") == true)
    }

    @Test func upAndDownWalkTheCandidatesAndThenTheHistoryOfCommandsRun() async throws {
        let h = try Harness()
        h.type(.char(":"))
        await h.effects.settle()
        h.type(text: "theme ")
        let candidates = h.screen.paletteModel.completions(for: "theme ")
        #expect(candidates.count >= 3)
        h.type(.down)
        #expect(h.screen.palette?.text == candidates[0])
        h.type(.down, .down)
        #expect(h.screen.palette?.text == candidates[2])      // choosing one does not narrow the list
        h.type(.up)
        #expect(h.screen.palette?.text == candidates[1])
        h.type(.enter)
        h.type(.char(":"))
        h.type(text: "pane 4")
        h.type(.enter)
        // An empty line walks the history, newest first; down past the newest empties the line.
        h.type(.char(":"))
        h.type(.up)
        #expect(h.screen.palette?.text == "pane 4")
        h.type(.up)
        #expect(h.screen.palette?.text == candidates[1])
        h.type(.down, .down)
        #expect(h.screen.palette?.text == "")
    }

    @Test func unknownCommandGivesAnErrorToastThatExpires() throws {
        let h = try Harness()
        h.type(.char(":"))
        h.type(text: "frobnicate")
        h.type(.enter)
        #expect(h.draw().snapshot().contains("unknown command \"frobnicate\""))
        #expect(h.app.toasts.notes.last?.level == .error)
        let deadline = try #require(h.screen.nextDeadline())
        h.clock.set(deadline)
        #expect(h.screen.tick(now: h.clock.now()))
        #expect(!h.draw().snapshot().contains("frobnicate"))
    }

    @Test func aPaneAsksInThePaletteAndNameGoesToTheComposer() throws {
        let h = try Harness()
        let parsed = try CommandPalette(themeNames: []).parse("name  Ana   Horvat").get()
        #expect(parsed.command.name == "name" && parsed.argument == "Ana Horvat")
        h.screen.run(commandLine: "name")
        #expect(h.app.toasts.notes.last?.text.hasPrefix(":name needs your name") == true, ":name needs a name")
        #expect(h.app.selectedPane == .contacts, "a broken line moves nothing")
        // The composer asks who invites: the palette opens with ":name " for the answer, at once.
        h.app.ask(inPalette: "name ")
        #expect(h.screen.handle(event: .service(.contactsChanged(generation: 1))))
        #expect(h.screen.palette?.text == "name ")
        h.type(text: "Ana")
        h.type(.enter)
        #expect(h.screen.palette == nil)
        #expect(h.app.selectedPane == .composer, ":name goes to the composer")
    }

    @Test func paneCommandAndQuitCommand() throws {
        let h = try Harness()
        h.screen.run(commandLine: "pane inbox")
        #expect(h.app.selectedPane == .inbox)
        h.screen.run(commandLine: "sort sideways")
        #expect(h.app.toasts.notes.last?.text == ":sort takes first or last (Contacts), or newest, oldest, most-failed, most-pending (Deliveries)")
        h.screen.run(commandLine: "quit")
        #expect(h.screen.wantsToQuit)
    }

    @Test func escapeNeverQuitsButQDoes() throws {
        let h = try Harness()
        h.type(.escape, .escape)
        #expect(!h.screen.wantsToQuit)
        h.type(.char("q"))
        #expect(h.screen.wantsToQuit)
    }

    @Test func qClosesTheHelpOverlayFirstAndQuitsOnlyFromThePane() throws {
        let h = try Harness()
        h.type(.char("?"))
        #expect(h.draw().snapshot().contains("Keys — 1 Contacts"))
        h.type(.char("q"))
        #expect(!h.screen.wantsToQuit)
        #expect(!h.draw().snapshot().contains("Keys — 1 Contacts"))
        h.type(.char("q"))
        #expect(h.screen.wantsToQuit)
    }

    @Test func quittingAskWhenSomethingWouldBeThrownAwayAndNStays() throws {
        let h = try Harness(quitNote: "This demo workspace is thrown away when Herald quits.")
        h.type(.char("q"))
        #expect(!h.screen.wantsToQuit)
        let asked = h.draw().snapshot()
        #expect(asked.contains("Quit Herald?") && asked.contains("thrown away") && asked.contains("Stay (n, esc)"))
        h.type(.char("n"))
        #expect(!h.screen.wantsToQuit && h.screen.quitQuestion == nil)
        h.type(.char("q"))
        _ = h.draw()                    // a question takes keys typed once it is on screen
        h.type(.char("y"))
        #expect(h.screen.wantsToQuit)
    }

    @Test func statusBarShowsWorkspacePlatformAndCounts() throws {
        let h = try Harness()
        _ = h.screen.handle(event: .service(.trackerState(TrackerState(nextPassAt: nil, bulks: [
            .init(bulkId: "b1", passesLeft: 3, pendingRecipients: 4), .init(bulkId: "b2", passesLeft: 1, pendingRecipients: 2),
        ], queuedRecipients: 1))))
        _ = h.screen.handle(event: .service(.inboxLoaded(InboxLoaded(externalUserId: "demo", countTotal: 9, countUnread: 5,
                                                                     messageCount: 9, isNextPage: false))))
        let status = h.draw().snapshot().components(separatedBy: "\n")[29]
        #expect(status.contains("work"))
        #expect(status.contains("embedded"))
        #expect(status.contains("7 pending"), "the bulks' pending recipients and the one still queued")
        #expect(status.contains("5 unread"))
        #expect(status.contains("inbox of demo"))
    }

    @Test func belowEightyByTwentyFourDegradesAndOnlyBelowFortyByTwelveSaysTooSmall() throws {
        let h = try Harness()
        let comfortable = h.draw(80, 24).snapshot()
        #expect(comfortable.contains("contacts here") && comfortable.contains("1 Contacts") && comfortable.contains("? help"))
        // Smaller: the pane stays, the key hints go, the tab titles shorten.
        let degraded = h.draw(60, 20).snapshot()
        #expect(degraded.contains("contacts here") && degraded.contains("1 Con │ 2 Sha"))
        #expect(!degraded.contains("? help"))
        #expect(h.draw(40, 12).snapshot().contains("contacts here"))
        #expect(h.draw(39, 12).snapshot().contains("Terminal too small: 39×12"))
        #expect(h.draw(40, 11).snapshot().contains("Herald needs at least 40×12."))
        _ = h.draw(3, 2)
        _ = h.draw(0, 0)
    }
}
