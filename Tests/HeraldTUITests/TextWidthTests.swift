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

    @Test func emojiAreTwoIncludingSequences() {
        #expect(TextWidth.of("😀") == 2)
        #expect(TextWidth.of("👍🏽") == 2)                // skin tone modifier
        #expect(TextWidth.of("👩‍👩‍👧") == 2)               // ZWJ family
        #expect(TextWidth.of("🇫🇷") == 2)                 // flag
        #expect(TextWidth.of("☺️") == 2)                  // VS16 makes it emoji presentation
        #expect(TextWidth.of("☺") == 1)                   // text presentation by default
        #expect(TextWidth.of("1️⃣") == 2)                  // keycap
    }

    @Test func combiningMarksAddNothing() {
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("Jose\u{301}") == 4)
        #expect(TextWidth.of("\u{301}") == 0)
        #expect(TextWidth.of("a\u{200B}b") == 2)
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
    }
}
