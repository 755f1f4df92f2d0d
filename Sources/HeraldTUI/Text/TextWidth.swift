/// Terminal display width of text, measured per grapheme cluster: 2 columns for East Asian
/// Wide/Fullwidth characters and emoji presentation (including ZWJ sequences, flags and VS16),
/// 0 for a cluster made only of zero-width characters, 1 otherwise.
public enum TextWidth {
    /// Columns `text` takes on a terminal.
    public static func of(_ text: String) -> Int {
        var asciiWidth = 0
        var allASCII = true
        for byte in text.utf8 {
            if byte >= 0x80 { allASCII = false; break }
            asciiWidth += 1
        }
        if allASCII { return asciiWidth }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii != 0x7F ? 1 : 0
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var sawVS16 = false
        var count = 0
        for scalar in scalars {
            count += 1
            if scalar.value == 0xFE0F { sawVS16 = true }
            if scalar.value == 0xFE0E { return isWide(first) ? 2 : 1 }   // text presentation
        }
        if sawVS16 { return 2 }
        if isZeroWidth(first) {
            // A cluster that starts with a mark (nothing to attach to) takes no column;
            // a cluster that only starts with a zero-width character takes the width of the rest.
            if count == 1 { return 0 }
            var rest = scalars.dropFirst().drop(while: { isZeroWidth($0) })
            guard let base = rest.popFirst() else { return 0 }
            return scalarWidth(base)
        }
        return scalarWidth(first)
    }

    @inline(__always)
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x1100 { return isZeroWidth(scalar) ? 0 : 1 }
        if isWide(scalar) { return 2 }
        return isZeroWidth(scalar) ? 0 : 1
    }

    /// East Asian Wide/Fullwidth or emoji presentation by default.
    @inline(__always)
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x1100 { return false }
        if inWideTable(v) { return true }
        return v >= 0x2300 && scalar.properties.isEmojiPresentation
    }

    @inline(__always)
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x300 { return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xAD }
        if (0x1160...0x11FF).contains(v) { return true }   // Hangul medial vowels, final consonants
        if v == 0x200B || v == 0x200C || v == 0x200D || v == 0x2060 || v == 0xFEFF { return true }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    /// Wide and Fullwidth ranges (Unicode East Asian Width W/F) outside the emoji blocks,
    /// which `isEmojiPresentation` covers. Sorted for a binary search.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x2E99, 0x2E9B...0x2EF3, 0x2F00...0x2FD5,
        0x2FF0...0x2FFF, 0x3000...0x303E, 0x3041...0x3096, 0x3099...0x30FF, 0x3105...0x312F,
        0x3131...0x318E, 0x3190...0x31E3, 0x31EF...0x321E, 0x3220...0x3247, 0x3250...0x4DBF,
        0x4E00...0xA48C, 0xA490...0xA4C6, 0xA960...0xA97C, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE52, 0xFE54...0xFE66, 0xFE68...0xFE6B, 0xFF01...0xFF60,
        0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x187F7,
        0x18800...0x18CD5, 0x18D00...0x18D08, 0x1AFF0...0x1AFFE, 0x1B000...0x1B122,
        0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167,
        0x1B170...0x1B2FB, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
        0x1F250...0x1F251, 0x1F260...0x1F265, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    @inline(__always)
    private static func inWideTable(_ v: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if v < range.lowerBound { high = mid - 1 } else if v > range.upperBound { low = mid + 1 } else { return true }
        }
        return false
    }
}
