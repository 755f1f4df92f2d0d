import HeraldCore
import Testing

@Suite struct TerminalSafeTextTests {
    @Test func plainTextIsReturnedUnchanged() {
        for text in ["Ada Lovelace", "李小龍", "Zoë Saldaña", "👩‍👩‍👧 family", "e\u{301}", "🇫🇷 Élodie"] {
            #expect(TerminalSafeText.sanitize(text) == text)
        }
    }

    @Test func csiSequencesAreRemovedWhole() {
        #expect(TerminalSafeText.sanitize("\u{1B}[31mred\u{1B}[0m") == "red")
        #expect(TerminalSafeText.sanitize("a\u{1B}[2J\u{1B}[1;1Hb") == "ab")
        #expect(TerminalSafeText.sanitize("x\u{9B}31my") == "xy")             // 8-bit CSI
    }

    @Test func oscAndDcsStringsAreRemovedWhole() {
        #expect(TerminalSafeText.sanitize("a\u{1B}]0;evil title\u{07}b") == "ab")
        #expect(TerminalSafeText.sanitize("a\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\b") == "alinkb")
        #expect(TerminalSafeText.sanitize("a\u{1B}P1$qm\u{1B}\\b") == "ab")
        #expect(TerminalSafeText.sanitize("a\u{9D}0;t\u{9C}b") == "ab")
        #expect(TerminalSafeText.sanitize("name\u{1B}]0;never ends") == "name")
    }

    @Test func controlCharactersDelAndC1AreDropped() {
        #expect(TerminalSafeText.sanitize("a\u{00}b\u{07}c\u{7F}d\u{85}e\u{1B}") == "abcde")
        #expect(TerminalSafeText.sanitize("a\u{1B}7b") == "ab")                 // ESC 7 (save cursor)
        #expect(TerminalSafeText.sanitize("a\u{1B}(Bb") == "ab")                // charset designation
    }

    @Test func lineBreaksAndTabsBecomeSpacesOnOneLine() {
        #expect(TerminalSafeText.sanitize("a\tb\nc\r\nd") == "a b c d")
        #expect(TerminalSafeText.sanitize("a\tb\nc\r\nd", singleLine: false) == "a b\nc\nd")
    }

    @Test func bidiOverridesAreRemoved() {
        #expect(TerminalSafeText.sanitize("abc\u{202E}fdp.exe\u{202C}") == "abcfdp.exe")
        #expect(TerminalSafeText.sanitize("\u{2066}x\u{2069}") == "x")
    }

    @Test func combiningMarksAndEmojiSurviveNextToEscapes() {
        #expect(TerminalSafeText.sanitize("\u{1B}[1mJose\u{301} 👍🏽\u{1B}[0m") == "Jose\u{301} 👍🏽")
    }
}
