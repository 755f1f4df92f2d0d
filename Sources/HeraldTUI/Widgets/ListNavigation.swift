/// The movement keys and mouse of a list, one set for every list and scrolling view (model: lazygit's shared list
/// controller): up and down a row, a page, half a page, the first and the last row, the wheel and a click on a row.
/// A pane lists `bindings` among its own and hands its mouse events to `scroll(_:)` and `row(at:in:offset:)`.
public struct ListNavigation {
    /// Rows a page key moves (pgdn, ctrl-f) and a half-page key (ctrl-d).
    public var page: Int
    public var halfPage: Int
    /// Moves the cursor (or the scroll) by a number of rows, negative up.
    public var move: (Int) -> Void
    public var first: () -> Void
    public var last: () -> Void

    /// - Parameter halfPage: rows of half a page; by default half of `page`.
    public init(page: Int, halfPage: Int? = nil, move: @escaping (Int) -> Void,
                first: @escaping () -> Void, last: @escaping () -> Void) {
        self.page = page
        self.halfPage = halfPage ?? page / 2
        self.move = move
        self.first = first
        self.last = last
    }

    /// The movement bindings: j/k, pgdn/pgup, ctrl-d/ctrl-u, g/G.
    public var bindings: [PaneBinding] {
        let move = self.move, page = self.page, halfPage = self.halfPage
        return [
            PaneBinding(.moveDown) { move(1) },
            PaneBinding(.moveUp) { move(-1) },
            PaneBinding(.pageDown) { move(page) },
            PaneBinding(.pageUp) { move(-page) },
            PaneBinding(.halfPageDown) { move(halfPage) },
            PaneBinding(.halfPageUp) { move(-halfPage) },
            PaneBinding(.first, first),
            PaneBinding(.last, last),
        ]
    }

    /// The wheel moves `rows` a notch; false for a click.
    public func scroll(_ mouse: MouseEvent, rows: Int = 3) -> Bool {
        switch mouse.kind {
        case .wheelDown: move(rows)
        case .wheelUp: move(-rows)
        case .click, .rightClick: return false
        }
        return true
    }

    /// The row of a list drawn in `rect` from row `offset` that a click at `mouse` lands on; nil outside it.
    public static func row(at mouse: MouseEvent, in rect: Rect, offset: Int) -> Int? {
        guard rect.contains(x: mouse.x, y: mouse.y) else { return nil }
        return offset + mouse.y - rect.y
    }
}
