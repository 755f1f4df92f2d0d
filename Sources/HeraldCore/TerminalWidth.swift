/// Columns text takes on a terminal, counted the way ncurses and the terminal place it.
///
/// Every code point takes the columns the C library's `wcwidth()` gives it (the table is generated
/// from it by `scripts/generate-terminal-widths.py`), because ncurses positions every character by
/// that number and tmux draws by it too. So a Devanagari vowel sign such as `ि` takes its own column,
/// a nonspacing mark none, and an emoji two. One rule goes beyond `wcwidth()`: inside a grapheme
/// cluster, the pictograph that follows a zero-width joiner joins the one before it and takes no
/// column of its own, so a family emoji (👩‍👩‍👧) takes two columns, as tmux and current terminals draw it.
public enum TerminalWidth {
    /// Columns of one code point on its own: 0, 1 or 2. Control characters take none.
    @inline(__always)
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x300 { return v < 0x20 || (0x7F...0x9F).contains(v) ? 0 : 1 }
        if contains(TerminalWidthTable.zeroWidth, v) { return 0 }
        return contains(TerminalWidthTable.wide, v) ? 2 : 1
    }

    /// Columns one grapheme cluster takes: the sum over its code points, where the one after a
    /// zero-width joiner adds nothing.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii != 0x7F ? 1 : 0 }
        var total = 0
        var afterJoiner = false
        for scalar in character.unicodeScalars {
            if afterJoiner { afterJoiner = false; continue }
            if scalar.value == 0x200D { afterJoiner = true; continue }
            total += of(scalar)
        }
        return total
    }

    /// Columns `text` takes.
    public static func of(_ text: String) -> Int {
        var width = 0
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + of($1) } }
            if byte >= 0x20 && byte != 0x7F { width += 1 }
        }
        return width
    }

    /// A cluster cut where the C library's cells begin: each piece starts with a code point that
    /// takes a column and carries the zero-width ones after it. ncurses keeps one such piece per cell.
    /// `joined` is true when a code point after a zero-width joiner started a piece: the terminal
    /// draws those pieces as one, so together they are wider than the cluster and cannot stand in for it.
    public static func cells(of character: Character) -> (pieces: [(text: String, columns: Int)], joined: Bool) {
        var pieces: [(text: String, columns: Int)] = []
        var joined = false
        var afterJoiner = false
        for scalar in character.unicodeScalars {
            let columns = of(scalar)
            if columns > 0 || pieces.isEmpty {
                if afterJoiner && !pieces.isEmpty { joined = true }
                pieces.append((String(scalar), columns))
            } else {
                pieces[pieces.count - 1].text.unicodeScalars.append(scalar)
            }
            afterJoiner = scalar.value == 0x200D
        }
        return (pieces, joined)
    }

    @inline(__always)
    private static func contains(_ ranges: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
        guard let first = ranges.first, v >= first.lowerBound else { return false }
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = ranges[mid]
            if v < range.lowerBound { high = mid - 1 } else if v > range.upperBound { low = mid + 1 } else { return true }
        }
        return false
    }
}
