import HeraldCore

/// A span of an editor line drawn in its own style (e.g. a `{firstName}` placeholder).
nonisolated public struct EditorHighlight: Sendable, Hashable {
    public var line: Int
    /// Grapheme indices in the line.
    public var range: Range<Int>
    public var style: Style
    public init(line: Int, range: Range<Int>, style: Style) { self.line = line; self.range = range; self.style = style }
}

/// One screen row of a wrapped line: graphemes `start..<end` of `line`.
nonisolated public struct VisualRow: Sendable, Hashable {
    public var line: Int
    public var start: Int
    public var end: Int
}

/// A multi-line text editor: lines of grapheme clusters, a cursor, soft wrap and vertical scroll.
nonisolated public struct EditorState: Sendable, Equatable {
    public private(set) var lines: [[Character]]
    public private(set) var line: Int = 0
    public private(set) var column: Int = 0
    /// The display column up/down try to keep.
    private var preferredColumn: Int?
    /// First visual row shown.
    public private(set) var scroll: Int = 0
    /// The wrap width used by up/down (set by the last render).
    public var wrapWidth: Int = 80

    public init(_ text: String = "") {
        lines = TerminalSafeText.sanitize(text, singleLine: false)
            .split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        if lines.isEmpty { lines = [[]] }
        line = lines.count - 1
        column = lines[line].count
    }

    public var text: String { lines.map { String($0) }.joined(separator: "\n") }

    // MARK: editing

    public mutating func insert(_ text: String) {
        let parts = TerminalSafeText.sanitize(text, singleLine: false).split(separator: "\n", omittingEmptySubsequences: false)
        for (i, part) in parts.enumerated() {
            if i > 0 { newline() }
            let chars = Array(part)
            lines[line].insert(contentsOf: chars, at: column)
            column += chars.count
        }
        preferredColumn = nil
    }

    public mutating func newline() {
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        line += 1; column = 0; preferredColumn = nil
    }

    public mutating func deleteBackward() {
        preferredColumn = nil
        if column > 0 { lines[line].remove(at: column - 1); column -= 1; return }
        guard line > 0 else { return }
        let current = lines.remove(at: line)
        line -= 1
        column = lines[line].count
        lines[line].append(contentsOf: current)
    }

    public mutating func deleteForward() {
        preferredColumn = nil
        if column < lines[line].count { lines[line].remove(at: column); return }
        guard line + 1 < lines.count else { return }
        lines[line].append(contentsOf: lines.remove(at: line + 1))
    }

    public mutating func deleteWordBackward() {
        guard column > 0 else { deleteBackward(); return }
        let start = TextEditing.wordStart(before: column, in: lines[line])
        lines[line].removeSubrange(start..<column); column = start; preferredColumn = nil
    }

    // MARK: motion

    public mutating func moveLeft() {
        preferredColumn = nil
        if column > 0 { column -= 1 } else if line > 0 { line -= 1; column = lines[line].count }
    }
    public mutating func moveRight() {
        preferredColumn = nil
        if column < lines[line].count { column += 1 } else if line + 1 < lines.count { line += 1; column = 0 }
    }
    public mutating func wordLeft() {
        preferredColumn = nil
        if column == 0 { moveLeft(); return }
        column = TextEditing.wordStart(before: column, in: lines[line])
    }
    public mutating func wordRight() {
        preferredColumn = nil
        if column == lines[line].count { moveRight(); return }
        column = TextEditing.wordEnd(after: column, in: lines[line])
    }
    public mutating func moveLineStart() { column = 0; preferredColumn = nil }
    public mutating func moveLineEnd() { column = lines[line].count; preferredColumn = nil }

    /// Moves to the visual row above (negative) or below, keeping the display column.
    public mutating func moveVertically(by delta: Int) {
        let rows = visualRows(width: wrapWidth)
        guard let current = rowIndex(in: rows) else { return }
        let target = min(max(0, current + delta), rows.count - 1)
        let goal = preferredColumn ?? TextEditing.columns(lines[line][rows[current].start..<column])
        guard target != current else {
            if delta < 0 { column = rows[current].start } else { column = rows[current].end }
            return
        }
        let row = rows[target]
        var index = row.start
        var used = 0
        let isLastOfLine = target + 1 >= rows.count || rows[target + 1].line != row.line
        while index < row.end {
            let w = TextWidth.of(lines[row.line][index])
            if used + w > goal { break }
            used += w; index += 1
        }
        if index == row.end && !isLastOfLine && index > row.start { index -= 1 }  // stay on this row
        line = row.line; column = index
        preferredColumn = goal
    }

    /// Applies an editing key; returns false for keys the editor does not use.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let c): insert(String(c))
        case .paste(let text): insert(text)
        case .enter: newline()
        case .tab: insert("    ")
        case .backspace, .ctrl("h"): deleteBackward()
        case .delete: deleteForward()
        case .left: moveLeft()
        case .right: moveRight()
        case .up: moveVertically(by: -1)
        case .down: moveVertically(by: 1)
        case .pageUp: moveVertically(by: -10)
        case .pageDown: moveVertically(by: 10)
        case .home, .ctrl("a"): moveLineStart()
        case .end, .ctrl("e"): moveLineEnd()
        case .alt("b"), .ctrlLeft: wordLeft()
        case .alt("f"), .ctrlRight: wordRight()
        case .ctrl("w"): deleteWordBackward()
        default: return false
        }
        return true
    }

    // MARK: wrapping

    /// The screen rows of every line wrapped at `width` columns (at a space when there is one).
    public func visualRows(width: Int) -> [VisualRow] {
        var rows: [VisualRow] = []
        let width = max(1, width)
        for (index, characters) in lines.enumerated() {
            var start = 0
            if characters.isEmpty { rows.append(VisualRow(line: index, start: 0, end: 0)); continue }
            while start < characters.count {
                var end = start
                var used = 0
                var lastSpace: Int?
                while end < characters.count {
                    let w = TextWidth.of(characters[end])
                    if used + w > width { break }
                    if characters[end] == " " { lastSpace = end }
                    used += w; end += 1
                }
                if end == start { end = start + 1 }                        // a char wider than the row
                if end < characters.count, let space = lastSpace, space + 1 > start, space + 1 < end { end = space + 1 }
                rows.append(VisualRow(line: index, start: start, end: end))
                if end == characters.count && used >= width {                // full last row: room for the cursor
                    rows.append(VisualRow(line: index, start: end, end: end))
                }
                start = end
            }
        }
        return rows
    }

    /// The visual row holding the cursor.
    func rowIndex(in rows: [VisualRow]) -> Int? {
        var found: Int?
        for (i, row) in rows.enumerated() where row.line == line && row.start <= column {
            if column < row.end { return i }
            found = i
        }
        return found
    }

    /// Scrolls so the cursor row is among `height` visible rows.
    mutating func scrollToCursor(rows: [VisualRow], height: Int) {
        guard height > 0, let current = rowIndex(in: rows) else { return }
        if current < scroll { scroll = current }
        if current >= scroll + height { scroll = current - height + 1 }
        scroll = max(0, min(scroll, max(0, rows.count - height)))
    }
}
