import Foundation
import HeraldTestKit
import HeraldCore
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels

/// A paste is text, never keys; a question takes only keys typed after it was on screen.
struct PasteAndQuestionTests {
    /// A list pane as Contacts is: letters are commands (I invites, a selects all, enter opens), `/` searches.
    final class ListPane: Pane {
        let title = "List"
        var searching = false
        var search = TextFieldState()
        var ran: [Action] = []
        var keyContext: KeyContext { searching ? .editor : .contacts }
        func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {
            canvas.box(rect, style: Style(.borderFocused), title: searching ? "/\(search.text)" : title)
        }
        var bindings: [PaneBinding] {
            if searching { return PaneBinding.each([.back, .finishEditing]) { self.searching = false } }
            return [PaneBinding(.search) { self.searching = true; self.search.setText("") }]
                + PaneBinding.each([.invite, .selectAll, .open, .select, .selectRange, .addContact, .moveDown]) { self.ran.append(.invite) }
        }
        func handle(unboundKey key: Key) -> Bool { searching ? search.handle(key) : false }
    }

    /// A pane with no text field and no search.
    final class PlainPane: Pane {
        let title = "Plain"
        var ran = 0
        var keyContext: KeyContext { .composer }
        func render(into canvas: inout Canvas, in rect: Rect, theme: Theme) {}
        var bindings: [PaneBinding] { PaneBinding.each([.send, .editMessage, .nextTemplate]) { self.ran += 1 } }
    }

    final class Harness {
        let clock = ManualClock()
        let app: AppViewModel
        let screen: AppScreen
        let list = ListPane()
        let plain = PlainPane()

        init(quitNote: String? = nil) throws {
            app = AppViewModel(workspaceName: "work", toasts: ToastBoard(clock: clock), clock: clock)
            screen = AppScreen(app: app, panes: [list, PlaceholderPane(title: "Share", context: .share, message: []), plain],
                               effects: EffectPump().queue, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"),
                               themeLoader: ThemeLoader(userDirectory: nil, builtinDirectory: nil), clock: clock,
                               quitNote: quitNote, applyTheme: { _ in })
        }

        @discardableResult
        func draw() -> String {
            var canvas = Canvas(size: Size(width: 100, height: 30))
            screen.layout(size: canvas.size)
            screen.render(into: &canvas, size: canvas.size)
            return canvas.snapshot()
        }

        func type(_ keys: Key...) { for key in keys { _ = screen.handle(key: key) } }
        var notes: [String] { app.toasts.notes.map(\.text) }
    }

    @Test func aPasteInAListStartsTheSearchWithItsTextAndRunsNoBinding() throws {
        let h = try Harness()
        h.draw()
        h.type(.paste("Ivana\n"))
        #expect(h.list.ran.isEmpty, "a pasted letter ran a binding: \(h.list.ran)")
        #expect(h.list.searching && h.list.search.text == "Ivana")
        // Two lines become one search line.
        h.type(.escape, .paste("Ana\nHorvat"))
        #expect(h.list.search.text == "Ana Horvat" && h.list.ran.isEmpty)
    }

    @Test func aPasteInAnOpenFieldIsTypedThere() throws {
        let h = try Harness()
        h.type(.char("/"), .char("A"))
        h.type(.paste("na\tHorvat\u{1B}[2J"))
        #expect(h.list.search.text == "Ana Horvat")
        #expect(h.list.ran.isEmpty)
    }

    @Test func aPasteWhereNoFieldTakesTextIsIgnoredWithANote() throws {
        let h = try Harness()
        h.type(.char("3"))
        h.type(.paste("esn\n"))
        #expect(h.plain.ran == 0)
        #expect(h.notes.contains { $0.contains("pasted text ignored") }, "\(h.notes)")
    }

    @Test func keysReadBeforeTheQuestionWasDrawnDoNotAnswerIt() throws {
        let h = try Harness(quitNote: "This demo workspace is thrown away when Herald quits.")
        h.draw()
        h.type(.char("q"), .char("y"))          // one read: y came before anyone saw the question
        #expect(!h.screen.wantsToQuit && h.screen.quitQuestion != nil)
        #expect(h.notes.contains { $0.contains("typed before the question was shown were ignored") }, "\(h.notes)")
        #expect(h.draw().contains("Quit Herald?"))
        h.type(.paste("y"))                       // a paste never answers
        #expect(!h.screen.wantsToQuit)
        #expect(h.notes.contains { $0.contains("a paste does not answer a question") })
        h.type(.char("y"))                        // typed after it was drawn
        #expect(h.screen.wantsToQuit)
    }

    @Test func aQuestionClosedAndOpenedAgainMustBeShownAgain() throws {
        let h = try Harness(quitNote: "thrown away")
        h.type(.char("q"))
        h.draw()
        h.type(.char("n"), .char("q"), .char("y"))
        #expect(!h.screen.wantsToQuit && h.screen.quitQuestion != nil)
    }

    @Test func keysAlreadyWaitingWhenTheLoopFirstDrawsTheQuestionAreDropped() throws {
        let h = try Harness(quitNote: "thrown away")
        let terminal = FakeTerminal(size: Size(width: 100, height: 30))
        let loop = AppLoop(terminal: terminal, screen: h.screen, mailbox: try Mailbox<AppEvent>(), clock: h.clock)
        loop.renderIfDue()
        terminal.queue(.char("q"))
        loop.processPending()
        terminal.queue(.char("y"))              // arrives while the question's first frame is drawn
        h.clock.advance(by: 1)
        #expect(loop.renderIfDue())
        #expect(terminal.screenText.contains("Quit Herald?"))
        loop.processPending()
        #expect(!h.screen.wantsToQuit)
        terminal.queue(.char("y"))
        loop.processPending()
        #expect(h.screen.wantsToQuit)
    }
}
