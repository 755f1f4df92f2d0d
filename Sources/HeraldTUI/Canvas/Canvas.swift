/// An in-memory grid of cells that widgets draw on; the terminal backend shows it.
nonisolated public struct Canvas: Sendable, Equatable {
    public private(set) var size: Size
    public private(set) var cells: [Cell]
    /// The cells of this frame that are links (`markLinks`), for a terminal that can make them clickable (OSC 8).
    public internal(set) var links: [LinkSpan] = []

    public init(size: Size, fill: Cell = .blank) {
        self.size = size
        cells = Array(repeating: fill, count: size.width * size.height)
    }

    public var width: Int { size.width }
    public var height: Int { size.height }
    public var bounds: Rect { Rect(size) }

    /// The cell at `x`,`y`, or nil outside the canvas.
    public func cell(x: Int, y: Int) -> Cell? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return cells[y * width + x]
    }

    /// Clears every cell to a blank with `style`.
    public mutating func clear(style: Style = .text) {
        let blank = Cell(" ", style: style)
        for i in cells.indices { cells[i] = blank }
        links.removeAll(keepingCapacity: true)
    }

    /// Writes one cell; a cluster of several columns that it cuts is blanked whole, so no part of it stays.
    @inline(__always)
    private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        let row = y * width
        let old = cells[row + x]
        if old.isContinuation || old.isWide { blankCluster(covering: x, row: row) }
        cells[row + x] = cell
    }

    private mutating func blankCluster(covering x: Int, row: Int) {
        var lead = x
        while lead > 0 && cells[row + lead].isContinuation { lead -= 1 }
        var end = lead + 1
        while end < width && cells[row + end].isContinuation { end += 1 }
        for i in lead..<end { cells[row + i] = Cell(" ", style: cells[row + i].style) }
    }

    /// Draws `text` from `x`,`y`, clipped to `clip` (and to the canvas); returns the column after
    /// the last cell written. A cluster of several columns that does not fit whole becomes spaces.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .text, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY else { return x }
        var column = x
        for character in text {
            if column >= area.maxX { break }
            let w = TextWidth.of(character)
            if w == 0 { continue }
            if column < area.x {
                // The part of a wide cluster that the left edge cuts shows as spaces.
                if column + w > area.x {
                    for c in area.x..<min(column + w, area.maxX) { set(c, y, Cell(" ", style: style)) }
                }
                column += w
                continue
            }
            if column + w > area.maxX {
                for c in column..<area.maxX { set(c, y, Cell(" ", style: style)) }
                return area.maxX
            }
            set(column, y, Cell(character, style: style, columns: w))
            for c in 1..<w { set(column + c, y, Cell(" ", style: style, isContinuation: true)) }
            column += w
        }
        return column
    }

    /// Fills `rect` with `character` (a narrow character) in `style`.
    public mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .text) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        let cell = Cell(TextWidth.of(character) == 1 ? character : " ", style: style)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { set(x, y, cell) }
        }
    }

    /// Changes the style of the cells in `rect` and keeps their characters.
    public mutating func restyle(_ rect: Rect, style: Style) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { cells[y * width + x].style = style }
        }
    }

    /// A horizontal line of `length` cells.
    public mutating func horizontalLine(x: Int, y: Int, length: Int, style: Style = Style(.border), character: Character = BoxCharacters.light.horizontal) {
        fill(Rect(x: x, y: y, width: length, height: 1), with: character, style: style)
    }

    /// A vertical line of `length` cells.
    public mutating func verticalLine(x: Int, y: Int, length: Int, style: Style = Style(.border), character: Character = BoxCharacters.light.vertical) {
        fill(Rect(x: x, y: y, width: 1, height: length), with: character, style: style)
    }

    /// A box border around `rect` with an optional title in the top edge; returns the inside.
    @discardableResult
    public mutating func box(_ rect: Rect, style: Style = Style(.border), characters: BoxCharacters = .light,
                             title: String? = nil, titleStyle: Style = Style(.title)) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let c = characters
        horizontalLine(x: rect.x + 1, y: rect.y, length: rect.width - 2, style: style, character: c.horizontal)
        horizontalLine(x: rect.x + 1, y: rect.maxY - 1, length: rect.width - 2, style: style, character: c.horizontal)
        verticalLine(x: rect.x, y: rect.y + 1, length: rect.height - 2, style: style, character: c.vertical)
        verticalLine(x: rect.maxX - 1, y: rect.y + 1, length: rect.height - 2, style: style, character: c.vertical)
        fill(Rect(x: rect.x, y: rect.y, width: 1, height: 1), with: c.topLeft, style: style)
        fill(Rect(x: rect.maxX - 1, y: rect.y, width: 1, height: 1), with: c.topRight, style: style)
        fill(Rect(x: rect.x, y: rect.maxY - 1, width: 1, height: 1), with: c.bottomLeft, style: style)
        fill(Rect(x: rect.maxX - 1, y: rect.maxY - 1, width: 1, height: 1), with: c.bottomRight, style: style)
        if let title, rect.width > 4 {
            let room = rect.width - 4
            let shown = TextFit.truncate(title, to: room)
            put(" " + shown + " ", x: rect.x + 1, y: rect.y, style: titleStyle,
                clip: Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1))
        }
        return rect.inset(by: 1)
    }

    /// The canvas as text, one line per row, trailing spaces trimmed (for snapshot tests).
    public func snapshot() -> String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                let cell = cells[y * width + x]
                if !cell.isContinuation { line.append(cell.character) }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// The characters of a box border.
nonisolated public struct BoxCharacters: Sendable, Hashable {
    public var horizontal: Character, vertical: Character
    public var topLeft: Character, topRight: Character, bottomLeft: Character, bottomRight: Character

    public static let light = BoxCharacters(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    public static let rounded = BoxCharacters(horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
    public static let heavy = BoxCharacters(horizontal: "━", vertical: "┃", topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛")
    public static let double = BoxCharacters(horizontal: "═", vertical: "║", topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝")
    public static let ascii = BoxCharacters(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}
