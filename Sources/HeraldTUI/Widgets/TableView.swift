/// One column of a table.
nonisolated public struct TableColumn: Sendable, Hashable {
    public var title: String
    public var width: LayoutSize
    public var alignment: Alignment
    public init(_ title: String, width: LayoutSize, alignment: Alignment = .left) {
        self.title = title; self.width = width; self.alignment = alignment
    }
}

/// A list with columns and a header row.
nonisolated public enum TableView {
    /// Column rects' x and width inside `rect`, one space between columns.
    public static func columnFrames(_ columns: [TableColumn], in rect: Rect) -> [(x: Int, width: Int)] {
        let gaps = max(0, columns.count - 1)
        let widths = Layout.lengths(total: rect.width - gaps, columns.map(\.width))
        var x = rect.x
        return widths.map { w in defer { x += w + 1 }; return (x, w) }
    }

    /// Draws the header and the visible rows; `cells` gives the texts of one row (already sanitised),
    /// `cellStyle` may colour a cell (e.g. a status column) and returns nil for the row style.
    public static func render(into canvas: inout Canvas, rect: Rect, columns: [TableColumn], state: inout ListState,
                              focused: Bool = true, cells: (Int) -> [String],
                              cellStyle: (Int, Int) -> Style? = { _, _ in nil }) {
        guard rect.height > 0 else { return }
        let frames = columnFrames(columns, in: rect)
        let header = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        canvas.fill(header, style: Style(.header))
        for (column, frame) in zip(columns, frames) where frame.width > 0 {
            canvas.put(TextFit.pad(column.title, to: frame.width, alignment: column.alignment),
                       x: frame.x, y: rect.y, style: Style(.header), clip: header)
        }
        let body = rect.inset(top: 1)
        ListView.render(into: &canvas, rect: body, state: &state, focused: focused) { canvas, rowRect, row in
            let texts = cells(row.index)
            for (i, (column, frame)) in zip(columns, frames).enumerated() where frame.width > 0 {
                let text = i < texts.count ? texts[i] : ""
                var style = row.style
                if let custom = cellStyle(row.index, i) {
                    style = row.isCursor ? custom.on(.backgroundOf(row.style.role)) : custom
                }
                canvas.put(TextFit.pad(text, to: frame.width, alignment: column.alignment),
                           x: frame.x, y: rowRect.y, style: style, clip: rowRect)
            }
        }
    }
}
