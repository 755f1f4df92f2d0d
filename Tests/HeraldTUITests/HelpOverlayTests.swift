import Testing
@testable import HeraldTUI

/// The `?` overlay on a narrow terminal: long descriptions wrap under themselves instead of being cut, and scrolling
/// reaches the last wrapped line.
@Suite struct HelpOverlayTests {
    @Test func whatThePaneDoesNotOfferNowIsMutedAndTheShellsKeysNeverAre() throws {
        // The Deliveries detail offers j/k, esc, enter, q and y; its list's f, s and r are not there now.
        var help = HelpOverlay(context: .deliveries, keyMap: KeyMap(), offered: [.moveDown, .moveUp, .back, .open, .quit, .copy])
        var canvas = Canvas(size: Size(width: 120, height: 80))
        help.render(into: &canvas, area: canvas.bounds)
        func role(of text: String) throws -> Role? {
            let at = try #require(canvas.find(text), "\(text) is shown")
            return canvas.cell(x: at.x, y: at.y)?.style.role
        }
        #expect(try role(of: "Filter the rows by state") == .muted)
        #expect(try role(of: "Resend what failed") == .muted)
        #expect(try role(of: "Move down") == .modal)
        #expect(try role(of: "Go to Contacts") == .modal)              // the shell's own keys work everywhere
        #expect(HelpOverlay(context: .deliveries, keyMap: KeyMap()).unavailable.isEmpty)
    }

    @Test func aDisabledBindingIsMutedWithWhyAndDoesNotRun() throws {
        var ran = false
        let bindings = [PaneBinding(.editMessage, disabledReason: "read-only: no editing here") { ran = true },
                        PaneBinding(.send) {}]
        let lines = KeyHelp.overlay(for: .composer, offered: bindings.offered, reasons: bindings.disabledReasons)
        let edit = try #require(lines.first { $0.text.contains("Edit the message") && !$0.text.contains("$EDITOR") })
        #expect(edit.muted && edit.text.hasSuffix("Edit the message — not now: read-only: no editing here"))
        let send = try #require(lines.first { $0.text.contains("Send the invitations") })
        #expect(!send.muted && !send.text.contains("not now"))
        let external = try #require(lines.first { $0.text.contains("$EDITOR") })
        #expect(external.muted && !external.text.contains("not now"), "not listed at all: muted, no reason")
        #expect(!bindings.run(.editMessage) && !ran, "a disabled binding does not run")
        #expect(bindings.run(.send))
    }

    @Test func aLongDescriptionWrapsUnderItselfAndScrollingReachesTheEnd() throws {
        var help = HelpOverlay(context: .contacts, keyMap: KeyMap())
        var canvas = Canvas(size: Size(width: 64, height: 60))
        help.render(into: &canvas, area: canvas.bounds)
        let screen = canvas.snapshot()
        #expect(!screen.contains("…"), "nothing is cut:\n\(screen)")
        let lines = screen.split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.contains("Select everyone shown") })
        // The rest of the sentence is on the next row, starting in the description's column.
        let column = try #require(lines[first].range(of: "Select everyone")).lowerBound.utf16Offset(in: lines[first])
        let next = lines[first + 1]
        let rest = next.drop { $0 == " " || $0 == "│" }
        #expect(try #require(next.range(of: String(rest.prefix(5)))).lowerBound.utf16Offset(in: next) == column, "\(next)")
        #expect((lines[first] + " " + rest).contains("has a number"))

        // In a short terminal, scrolling to the end shows the last wrapped row.
        var short = Canvas(size: Size(width: 64, height: 14))
        help.render(into: &short, area: short.bounds)
        help.scroll(by: 1000, visible: HelpOverlay.visibleLines(in: short.bounds))
        help.render(into: &short, area: short.bounds)
        let wrapped = HelpOverlay.wrap(help.lines, width: 60)
        #expect(wrapped.count > help.lines.count)
        let last = try #require(wrapped.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }).trimmingCharacters(in: .whitespaces)
        #expect(short.snapshot().contains(last))
    }
}
