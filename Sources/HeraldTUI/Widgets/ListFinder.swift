import HeraldViewModels

/// The `/` field of a list that jumps to matches (Deliveries, Inbox): open while typing, then a reminder of
/// the query and of `n` / `N` on the same row.
nonisolated struct ListFinder {
    private(set) var field = TextFieldState()
    private(set) var typing = false

    /// Opens the field empty, as vim does: the last query still counts (n, N, and enter on the empty field) until
    /// a key types a new one.
    mutating func begin() {
        typing = true
        field.setText("")
    }

    mutating func end() { typing = false }

    /// A key typed into the open field: enter or tab closes it; answers the query when the key changed it.
    mutating func type(_ key: Key) -> (handled: Bool, query: String?) {
        if key == .enter || key == .tab { typing = false; return (true, nil) }
        let before = field.text
        guard field.handle(key) else { return (false, nil) }
        return (true, field.text == before ? nil : field.text)
    }

    /// Draws the field (typing) or the query with its match count on `row`; nothing when there is no search.
    mutating func render(into canvas: inout Canvas, row: Rect, query: String, matches: Int) {
        guard typing || !query.isEmpty, row.width > 4, row.height > 0 else { return }
        let line = Rect(x: row.x, y: row.y, width: row.width, height: 1)
        canvas.fill(line, style: Style(.text))
        canvas.put("/", x: row.x, y: row.y, style: Style(.title), clip: line)
        var counted = query.isEmpty ? "" : "  \(matches) match\(matches == 1 ? "" : "es")" + (typing ? "" : " · n next · N previous · esc clears")
        if typing, field.text.isEmpty, !query.isEmpty { counted = "  enter keeps /\(query)" }
        let fieldWidth = max(8, min(40, row.width - 1 - counted.count))
        if typing {
            TextFieldView.render(into: &canvas, rect: Rect(x: row.x + 1, y: row.y, width: fieldWidth, height: 1), state: &field,
                                 placeholder: "type to jump to a match")
        } else {
            canvas.put(TextFit.truncate(query, to: fieldWidth), x: row.x + 1, y: row.y, style: Style(.highlight), clip: line)
        }
        canvas.put(TextFit.truncate(counted, to: max(0, row.width - 1 - fieldWidth)), x: row.x + 1 + fieldWidth, y: row.y,
                   style: Style(.muted), clip: line)
    }
}
