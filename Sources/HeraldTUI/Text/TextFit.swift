/// Horizontal alignment inside a fixed width.
nonisolated public enum Alignment: Sendable, Equatable {
    case left, center, right
}

/// Fitting text into a number of columns without splitting a grapheme or half a wide character.
nonisolated public enum TextFit {
    /// `text` cut to at most `width` columns; when it had to be cut, the last column is `ellipsis`.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        let total = TextWidth.of(text)
        if total <= width { return text }
        let ellipsisWidth = TextWidth.of(ellipsis)
        let budget = ellipsisWidth <= width ? width - ellipsisWidth : width
        var out = ""
        var used = 0
        for character in text {
            let w = TextWidth.of(character)
            if used + w > budget { break }
            out.append(character)
            used += w
        }
        return ellipsisWidth <= width ? out + ellipsis : out
    }

    /// `text` truncated if needed, then padded with spaces to exactly `width` columns.
    public static func pad(_ text: String, to width: Int, alignment: Alignment = .left, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        let cut = truncate(text, to: width, ellipsis: ellipsis)
        let missing = width - TextWidth.of(cut)
        guard missing > 0 else { return cut }
        switch alignment {
        case .left: return cut + String(repeating: " ", count: missing)
        case .right: return String(repeating: " ", count: missing) + cut
        case .center:
            let left = missing / 2
            return String(repeating: " ", count: left) + cut + String(repeating: " ", count: missing - left)
        }
    }

    /// Characters of `text` whose columns fit starting at column `skip` (for horizontal scroll);
    /// a wide cluster cut by the left edge is dropped (its visible columns become spaces).
    public static func columns(of text: String, from skip: Int, width: Int) -> String {
        guard width > 0 else { return "" }
        var out = ""
        var column = 0
        var used = 0
        for character in text {
            let w = TextWidth.of(character)
            defer { column += w }
            if column + w <= skip { continue }
            if column < skip {                      // a wide cluster straddling the left edge
                let visible = min(column + w - skip, width - used)
                out += String(repeating: " ", count: visible); used += visible
                continue
            }
            if used + w > width { break }
            out.append(character)
            used += w
        }
        return out
    }
}
