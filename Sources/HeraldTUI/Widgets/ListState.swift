/// Cursor and scroll position of a list of `count` rows.
nonisolated public struct ListState: Sendable, Equatable {
    public var count: Int { didSet { clamp() } }
    public private(set) var cursor: Int
    /// Index of the first visible row.
    public private(set) var offset: Int

    public init(count: Int = 0, cursor: Int = 0, offset: Int = 0) {
        self.count = max(0, count)
        self.cursor = cursor
        self.offset = offset
        clamp()
    }

    private mutating func clamp() {
        cursor = count == 0 ? 0 : min(max(0, cursor), count - 1)
        offset = min(max(0, offset), max(0, count - 1))
    }

    /// Moves the cursor to `index` (clamped).
    public mutating func select(_ index: Int) { cursor = index; clamp() }
    public mutating func move(by delta: Int) { select(cursor + delta) }
    public mutating func pageDown(visibleRows: Int) { move(by: max(1, visibleRows - 1)) }
    public mutating func pageUp(visibleRows: Int) { move(by: -max(1, visibleRows - 1)) }
    public mutating func home() { select(0) }
    public mutating func end() { select(count - 1) }

    /// Scrolls as little as possible so the cursor is among the `visibleRows` shown.
    public mutating func scrollToCursor(visibleRows: Int) {
        guard visibleRows > 0 else { return }
        if cursor < offset { offset = cursor }
        if cursor >= offset + visibleRows { offset = cursor - visibleRows + 1 }
        offset = min(offset, max(0, count - visibleRows))
        offset = max(0, offset)
    }
}
