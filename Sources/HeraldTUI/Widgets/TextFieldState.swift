import HeraldCore

/// A one-line text input: its text as grapheme clusters, the cursor and the horizontal scroll.
nonisolated public struct TextFieldState: Sendable, Equatable {
    public private(set) var characters: [Character]
    /// Cursor position, in graphemes (0...characters.count).
    public private(set) var cursor: Int
    /// First display column shown.
    public private(set) var scroll: Int = 0

    public init(_ text: String = "") {
        characters = Array(TerminalSafeText.sanitize(text))
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Inserts text at the cursor (control characters and escape sequences are dropped).
    public mutating func insert(_ text: String) {
        let clean = Array(TerminalSafeText.sanitize(text))
        characters.insert(contentsOf: clean, at: cursor)
        cursor += clean.count
    }

    public mutating func deleteBackward() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1); cursor -= 1
    }
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }
    public mutating func deleteWordBackward() {
        let start = TextEditing.wordStart(before: cursor, in: characters)
        characters.removeSubrange(start..<cursor); cursor = start
    }
    public mutating func deleteToEnd() { characters.removeSubrange(cursor...) }
    public mutating func deleteToStart() { characters.removeSubrange(..<cursor); cursor = 0 }
    public mutating func moveLeft() { cursor = max(0, cursor - 1) }
    public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
    public mutating func moveHome() { cursor = 0 }
    public mutating func moveEnd() { cursor = characters.count }
    public mutating func wordLeft() { cursor = TextEditing.wordStart(before: cursor, in: characters) }
    public mutating func wordRight() { cursor = TextEditing.wordEnd(after: cursor, in: characters) }
    public mutating func setText(_ text: String) { self = TextFieldState(text) }

    /// Applies an editing key; returns false for keys a text field does not use.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let c): insert(String(c))
        case .paste(let text): insert(Self.oneLine(text))
        case .backspace, .ctrl("h"): deleteBackward()
        case .delete, .ctrl("d"): deleteForward()
        case .left, .ctrl("b"): moveLeft()
        case .right, .ctrl("f"): moveRight()
        case .home, .ctrl("a"): moveHome()
        case .end, .ctrl("e"): moveEnd()
        case .alt("b"), .ctrlLeft: wordLeft()
        case .alt("f"), .ctrlRight: wordRight()
        case .ctrl("w"), .alt("\u{7F}"): deleteWordBackward()
        case .ctrl("k"): deleteToEnd()
        case .ctrl("u"): deleteToStart()
        default: return false
        }
        return true
    }

    /// A paste for one line: the line break a copied line ends with goes (it would be a trailing space); the others
    /// become spaces when inserted.
    static func oneLine(_ text: String) -> String {
        var kept = Substring(text)
        while let last = kept.last, last.isNewline { kept.removeLast() }
        return String(kept)
    }

    /// Adjusts the horizontal scroll so the cursor is visible in `width` columns.
    public mutating func scrollToCursor(width: Int) {
        guard width > 0 else { return }
        let cursorColumn = TextEditing.columns(characters[..<cursor])
        if cursorColumn < scroll { scroll = cursorColumn }
        if cursorColumn >= scroll + width { scroll = cursorColumn - width + 1 }
        scroll = max(0, scroll)
    }
}
