import Foundation
@testable import HeraldTUI
import Testing

/// One bracketed paste, byte by byte, becomes one `.paste` key with clean text.
struct BracketedPasteTests {
    /// Feeds `bytes` to an open collector; the keys it finished.
    func feed(_ bytes: [UInt8], to collector: inout PasteCollector, at now: Double = 0) -> [Key] {
        bytes.compactMap { collector.feed($0, at: now) }
    }

    @Test func aPasteEndsAtItsEndMarkerWithLineBreaksKeptAndControlsDropped() {
        var paste = PasteCollector()
        paste.begin(at: 0)
        // A terminal sends a paste's line breaks as CR; a bell and a screen-clearing sequence must not survive.
        let keys = feed(Array("Ivana\r\u{07}Ana \u{1B}[2JHorvat\r\n".utf8) + Array(BracketedPaste.end.utf8), to: &paste)
        #expect(keys == [.paste("Ivana\nAna Horvat\n")])
        #expect(!paste.isOpen)
    }

    @Test func bytesThatAreNotUTF8AreReplacedAndNothingAroundThemIsLost() {
        var paste = PasteCollector()
        paste.begin(at: 0)
        let keys = feed(Array("Ž".utf8) + [0xFF, 0xC3] + Array("eljka".utf8) + Array(BracketedPaste.end.utf8), to: &paste)
        #expect(keys == [.paste("Ž\u{FFFD}\u{FFFD}eljka")])
    }

    @Test func aLoneEscapeOrAPartOfTheMarkerInTheTextDoesNotEndThePaste() {
        var paste = PasteCollector()
        paste.begin(at: 0)
        #expect(feed(Array("a\u{1B}[201x b \u{1B}\u{1B}[20".utf8), to: &paste).isEmpty)
        #expect(paste.isOpen)
        let keys = feed(Array("1~".utf8), to: &paste)
        #expect(keys.count == 1)
        guard case .paste(let text) = keys.first else { Issue.record("no paste"); return }
        #expect(text.hasPrefix("a") && text.contains(" b ") && !text.contains("\u{1B}"))
    }

    @Test func aHugePasteIsCutAtTheLimitAndStillEndsAtItsMarker() {
        var paste = PasteCollector()
        paste.begin(at: 0)
        let keys = feed([UInt8](repeating: UInt8(ascii: "x"), count: BracketedPaste.limit + 10) + Array(BracketedPaste.end.utf8), to: &paste)
        guard case .paste(let text) = keys.first else { Issue.record("no paste"); return }
        #expect(text.utf8.count == BracketedPaste.limit)
        #expect(!paste.isOpen)
    }

    @Test func aPasteWhoseEndNeverComesIsClosedAfterItWentQuiet() {
        var paste = PasteCollector()
        paste.begin(at: 100)
        _ = feed(Array("abc".utf8), to: &paste, at: 100.5)
        #expect(!paste.isStale(at: 100.5 + BracketedPaste.staleAfter - 0.1))
        #expect(paste.isStale(at: 100.5 + BracketedPaste.staleAfter))
        #expect(paste.finish() == .paste("abc"))
        #expect(!paste.isStale(at: 1_000))
    }

    @Test func aOneLineFieldTakesAPastedLineWithoutItsLineBreakAndJoinsTheOthersWithSpaces() {
        var field = TextFieldState("> ")
        _ = field.handle(.paste("Ivana\n"))
        #expect(field.text == "> Ivana")
        _ = field.handle(.paste(" Ana\nHorvat\n\n"))
        #expect(field.text == "> Ivana Ana Horvat")
    }
}
