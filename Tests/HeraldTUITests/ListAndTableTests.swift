@testable import HeraldTUI
import Testing

@Suite struct ListAndTableTests {
    @Test func listShowsOnlyVisibleRowsAndKeepsTheCursorInView() {
        var canvas = Canvas(size: Size(width: 12, height: 3))
        var state = ListState(count: 100_000)
        var asked: [Int] = []
        state.select(10)
        ListView.render(into: &canvas, rect: canvas.bounds, state: &state) { index in
            asked.append(index); return "row \(index)"
        }
        #expect(asked == [8, 9, 10])
        #expect(canvas.snapshot() == "row 8\nrow 9\nrow 10")
        #expect(canvas.cell(x: 0, y: 2)?.style.role == .selection)
        #expect(canvas.cell(x: 0, y: 1)?.style.role == .text)
    }

    @Test func movingUpScrollsBackAndTheEndIsClamped() {
        var canvas = Canvas(size: Size(width: 10, height: 3))
        var state = ListState(count: 5)
        state.end()
        ListView.render(into: &canvas, rect: canvas.bounds, state: &state) { "r\($0)" }
        #expect(canvas.snapshot() == "r2\nr3\nr4")
        state.select(0)
        ListView.render(into: &canvas, rect: canvas.bounds, state: &state) { "r\($0)" }
        #expect(canvas.snapshot() == "r0\nr1\nr2")
        state.move(by: 99)
        #expect(state.cursor == 4)
        state.count = 2
        #expect(state.cursor == 1)
    }

    @Test func unfocusedCursorRowUsesTheInactiveSelection() {
        var canvas = Canvas(size: Size(width: 10, height: 2))
        var state = ListState(count: 2)
        ListView.render(into: &canvas, rect: canvas.bounds, state: &state, focused: false) { "r\($0)" }
        #expect(canvas.cell(x: 5, y: 0)?.style.role == .selectionInactive)
    }

    @Test func longRowsWithWideCharactersAreTruncatedInsideTheBox() {
        var canvas = Canvas(size: Size(width: 10, height: 4))
        let inside = canvas.box(canvas.bounds)
        var state = ListState(count: 2)
        let rows = ["李小龍李小龍", "Zoë 👩‍👩‍👧 family"]
        ListView.render(into: &canvas, rect: inside, state: &state) { rows[$0] }
        #expect(canvas.snapshot() == """
        ┌────────┐
        │李小龍… │
        │Zoë 👩‍👩‍👧 …│
        └────────┘
        """)
    }

    @Test func tableAlignsColumnsUnderAHeader() {
        var canvas = Canvas(size: Size(width: 24, height: 3))
        var state = ListState(count: 2)
        let data = [["Ada", "delivered", "3"], ["李小龍", "pending", "12"]]
        TableView.render(into: &canvas, rect: canvas.bounds,
                         columns: [TableColumn("Name", width: .flex(1)), TableColumn("Status", width: .fixed(9)),
                                   TableColumn("#", width: .fixed(3), alignment: .right)],
                         state: &state, cells: { data[$0] },
                         cellStyle: { row, column in column == 1 ? Style(row == 0 ? .statusDelivered : .statusPending) : nil })
        #expect(canvas.snapshot() == """
        Name       Status      #
        Ada        delivered   3
        李小龍     pending    12
        """)
        #expect(canvas.cell(x: 0, y: 0)?.style.role == .header)
        #expect(canvas.cell(x: 12, y: 2)?.style.role == .statusPending)
        #expect(canvas.cell(x: 12, y: 1)?.style == Style(.statusDelivered, background: .backgroundOf(.selection)))
    }
}
