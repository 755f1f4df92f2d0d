/// Draws a multi-line editor with soft wrap, highlights and a cursor.
nonisolated public enum EditorView {
    public static func render(into canvas: inout Canvas, rect: Rect, state: inout EditorState, focused: Bool = true,
                              highlights: [EditorHighlight] = [], style: Style = Style(.input)) {
        guard !rect.isEmpty else { return }
        canvas.fill(rect, style: style)
        state.wrapWidth = rect.width
        let rows = state.visualRows(width: rect.width)
        state.scrollToCursor(rows: rows, height: rect.height)
        let cursorRow = state.rowIndex(in: rows)
        let last = min(rows.count, state.scroll + rect.height)
        guard state.scroll < last else { return }
        for r in state.scroll..<last {
            let row = rows[r]
            let y = rect.y + r - state.scroll
            let lineHighlights = highlights.filter { $0.line == row.line }
            var x = rect.x
            for index in row.start..<row.end {
                let character = state.lines[row.line][index]
                var cellStyle = style
                for h in lineHighlights where h.range.contains(index) { cellStyle = h.style }
                if focused && r == cursorRow && index == state.column { cellStyle = Style(.cursor) }
                x = canvas.put(String(character), x: x, y: y, style: cellStyle, clip: rect)
            }
            if focused && r == cursorRow && state.column == row.end && x < rect.maxX {
                canvas.put(" ", x: x, y: y, style: Style(.cursor), clip: rect)
            }
        }
    }
}
