/// Grapheme-based word motions shared by the text field and the editor.
nonisolated enum TextEditing {
    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }

    /// Index of the start of the word before `index`.
    static func wordStart(before index: Int, in characters: [Character]) -> Int {
        var i = index
        while i > 0 && !isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0 && isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    /// Index just after the end of the word at or after `index`.
    static func wordEnd(after index: Int, in characters: [Character]) -> Int {
        var i = index
        while i < characters.count && !isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count && isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    /// Display columns of `characters[..<end]`.
    static func columns(_ characters: ArraySlice<Character>) -> Int {
        characters.reduce(0) { $0 + TextWidth.of($1) }
    }
}
