@testable import HeraldTUI
import Testing

@Suite struct TextWidthTests {
    @Test func asciiIsOneColumnEach() { #expect(TextWidth.of("Herald 1.0") == 10) }

    @Test func cjkAndFullwidthAreTwo() {
        #expect(TextWidth.of("李小龍") == 6)
        #expect(TextWidth.of("한국어") == 6)
        #expect(TextWidth.of("ＡＢ") == 4)
        #expect(TextWidth.of("ｶﾀｶﾅ") == 4)   // halfwidth katakana stays narrow
    }

    @Test func emojiTakeWhatTheCLibraryGivesThemAndAJoinedSequenceTakesTwo() {
        #expect(TextWidth.of("😀") == 2)
        #expect(TextWidth.of("👩‍👩‍👧") == 2)               // after a ZWJ a character joins, as tmux draws it
        #expect(TextWidth.of("🏳️‍🌈") == 1)               // 🏳 is narrow; the rainbow joins it
        #expect(TextWidth.of("🇫🇷") == 2)                 // two regional indicators, one column each
        #expect(TextWidth.of("👍🏽") == 4)                // wcwidth gives the skin tone its own two columns
        #expect(TextWidth.of("☺️") == 1)                  // VS16 changes the glyph, not wcwidth
        #expect(TextWidth.of("1️⃣") == 1)
    }

    @Test func spacingVowelSignsTakeAColumnAndNonspacingOnesNone() {
        #expect(TextWidth.of("अमित पटेल") == 8)          // ि (U+093F) is a spacing mark; े (U+0947) is not
        #expect(Array("अमित").count == 3)                // …though मि is one grapheme cluster
        #expect(TextWidth.of(Character("मि")) == 2)
        #expect(TextWidth.of("क्षि") == 3)                 // a conjunct: क and ष take a column, the virama none
        #expect(TextWidth.of("கொ") == 2)
    }

    @Test func aClusterIsCutIntoTheCellsNcursesKeeps() {
        let vowel = TextWidth.cells(of: "मि")
        #expect(vowel.pieces.map(\.text) == ["म", "ि"])
        #expect(vowel.pieces.map(\.columns) == [1, 1])
        #expect(!vowel.joined)
        let accent = TextWidth.cells(of: "e\u{301}")
        #expect(accent.pieces.map(\.text) == ["e\u{301}"])
        let family = TextWidth.cells(of: "👩‍👩‍👧")
        #expect(family.joined)
        #expect(family.pieces.first?.text == "👩\u{200D}")
    }

    @Test func truncationAddsAnEllipsisAndNeverSplitsWideCharacters() {
        #expect(TextFit.truncate("Herald", to: 10) == "Herald")
        #expect(TextFit.truncate("Herald rocks", to: 6) == "Heral…")
        #expect(TextFit.truncate("李小龍李小龍", to: 6) == "李小…")     // 4 + 1 = 5 columns, no half char
        #expect(TextWidth.of(TextFit.truncate("李小龍李小龍", to: 6)) <= 6)
        #expect(TextFit.truncate("👩‍👩‍👧👩‍👩‍👧", to: 3) == "👩‍👩‍👧…")
        #expect(TextFit.truncate("Jose\u{301}phine", to: 5) == "Jose\u{301}…")
        #expect(TextFit.truncate("abc", to: 0) == "")
    }

    @Test func paddingFillsExactlyToTheWidth() {
        #expect(TextFit.pad("ab", to: 5) == "ab   ")
        #expect(TextFit.pad("ab", to: 5, alignment: .right) == "   ab")
        #expect(TextFit.pad("ab", to: 6, alignment: .center) == "  ab  ")
        #expect(TextWidth.of(TextFit.pad("李小龍李", to: 5)) == 5)
    }

    @Test func horizontalScrollDropsAWideCharacterCutByTheEdge() {
        #expect(TextFit.columns(of: "ab李c", from: 3, width: 5) == " c")
        #expect(TextFit.columns(of: "abcdef", from: 2, width: 3) == "cde")
        #expect(TextFit.columns(of: "aक्षिb", from: 2, width: 4) == "  b")     // the 3-column cluster cut after its first column
    }
}
