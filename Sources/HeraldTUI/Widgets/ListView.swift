/// What the list tells a row drawer about the row it draws.
nonisolated public struct ListRowContext: Sendable {
    public var index: Int
    public var isCursor: Bool
    public var focused: Bool
    /// The base style of the row (the selection style on the cursor row).
    public var style: Style
}

/// A scrolling list that asks for only the rows it shows, so its length costs nothing.
nonisolated public enum ListView {
    /// Draws the visible rows of `state` into `rect`; `drawRow` draws one row into its one-line rect.
    public static func render(into canvas: inout Canvas, rect: Rect, state: inout ListState, focused: Bool = true,
                              drawRow: (inout Canvas, Rect, ListRowContext) -> Void) {
        guard !rect.isEmpty else { return }
        state.scrollToCursor(visibleRows: rect.height)
        canvas.fill(rect, style: .text)
        let last = min(state.count, state.offset + rect.height)
        guard state.offset < last else { return }
        for index in state.offset..<last {
            let rowRect = Rect(x: rect.x, y: rect.y + index - state.offset, width: rect.width, height: 1)
            let isCursor = index == state.cursor
            let style = isCursor ? Style(focused ? .selection : .selectionInactive) : .text
            if isCursor { canvas.fill(rowRect, style: style) }
            drawRow(&canvas, rowRect, ListRowContext(index: index, isCursor: isCursor, focused: focused, style: style))
        }
    }

    /// Draws rows given as text (already sanitised), truncated with an ellipsis.
    public static func render(into canvas: inout Canvas, rect: Rect, state: inout ListState, focused: Bool = true,
                              rowText: (Int) -> String) {
        render(into: &canvas, rect: rect, state: &state, focused: focused) { canvas, rowRect, row in
            canvas.put(TextFit.truncate(rowText(row.index), to: rowRect.width), x: rowRect.x, y: rowRect.y,
                       style: row.style, clip: rowRect)
        }
    }
}
