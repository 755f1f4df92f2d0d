@testable import HeraldTUI
import Testing

@Suite struct CanvasTests {
    @Test func textIsClippedToTheRect() {
        var canvas = Canvas(size: Size(width: 10, height: 2))
        canvas.put("Hello, world", x: 2, y: 0, clip: Rect(x: 2, y: 0, width: 5, height: 1))
        #expect(canvas.snapshot() == "  Hello\n")
    }

    @Test func wideCharactersTakeTwoCellsWithAContinuation() {
        var canvas = Canvas(size: Size(width: 6, height: 1))
        canvas.put("李a", x: 0, y: 0)
        #expect(canvas.cell(x: 0, y: 0)?.isWide == true)
        #expect(canvas.cell(x: 1, y: 0)?.isContinuation == true)
        #expect(canvas.cell(x: 2, y: 0)?.character == "a")
        #expect(canvas.snapshot() == "李a")
    }

    @Test func boxBorderStaysWholeWhenWideTextIsClippedNextToIt() {
        var canvas = Canvas(size: Size(width: 8, height: 3))
        let inside = canvas.box(canvas.bounds)
        canvas.put("李小龍李小龍", x: inside.x, y: inside.y, clip: inside)   // 6 columns inside: 3 chars fit
        canvas.put("ab李小", x: inside.x + 1, y: inside.y, clip: inside) // cuts the first 李 in half; 小 would cross the border
        #expect(canvas.snapshot() == """
        ┌──────┐
        │ ab李 │
        └──────┘
        """)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(size: Size(width: 4, height: 1))
        canvas.put("李龍", x: 0, y: 0)
        canvas.put("|", x: 1, y: 0)
        #expect(canvas.snapshot() == " |龍")
        canvas.put("x", x: 2, y: 0)
        #expect(canvas.snapshot() == " |x")
        #expect(canvas.cell(x: 3, y: 0)?.isContinuation == false)
    }

    @Test func wideCharacterStraddlingTheLeftClipShowsASpace() {
        var canvas = Canvas(size: Size(width: 5, height: 1))
        canvas.fill(canvas.bounds, with: ".")
        canvas.put("李ab", x: 0, y: 0, clip: Rect(x: 1, y: 0, width: 4, height: 1))
        #expect(canvas.snapshot() == ". ab.")
    }

    @Test func titleInTheBorderIsTruncated() {
        var canvas = Canvas(size: Size(width: 12, height: 3))
        canvas.box(canvas.bounds, title: "Deliveries of today")
        #expect(canvas.snapshot().split(separator: "\n")[0] == "┌ Deliver… ┐")
    }

    @Test func zeroWidthClustersAreSkippedAndCombiningMarksStay() {
        var canvas = Canvas(size: Size(width: 8, height: 1))
        canvas.put("\u{301}Jose\u{301}!", x: 0, y: 0)
        #expect(canvas.snapshot() == "Jose\u{301}!")
    }

    @Test func layoutSplitsFixedAndFlexSizes() {
        let rows = Layout.rows(Rect(x: 0, y: 0, width: 80, height: 24), [.fixed(1), .flex(1), .fixed(1)])
        #expect(rows.map(\.height) == [1, 22, 1])
        #expect(rows.map(\.y) == [0, 1, 23])
        let cols = Layout.columns(Rect(x: 0, y: 0, width: 100, height: 1), [.percent(30), .flex(1), .flex(2)])
        #expect(cols.map(\.width) == [30, 23, 47])
        #expect(Layout.lengths(total: 5, [.fixed(4), .fixed(4), .flex(1)]) == [4, 1, 0])
    }
}
