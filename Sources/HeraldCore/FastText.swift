import Foundation

/// String helpers for the hot paths (an import, a search, the rows of a list): they work on UTF-8
/// bytes, and on Unicode scalars where the text is not plain ASCII at the place that matters, without
/// Foundation; each answers as its Foundation counterpart does.
public enum FastText {
    @inline(__always)
    public static func isASCIISpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    @inline(__always)
    public static func isASCIIWhitespaceOrNewline(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// `s` without leading and trailing whitespace (as `trimmingCharacters(in: .whitespaces)`).
    public static func trimSpaces(_ s: String) -> String {
        trim(s, newlines: false)
    }

    /// `s` without leading and trailing whitespace and line breaks.
    public static func trimSpacesAndNewlines(_ s: String) -> String {
        trim(s, newlines: true)
    }

    /// What Foundation's `.whitespaces` holds (Unicode's space separators, tab, and U+200B), and with
    /// `newlines`, what `.whitespacesAndNewlines` adds (LF to CR, NEL, line and paragraph separators).
    @inline(__always)
    public static func isSpace(_ v: UInt32, newlines: Bool) -> Bool {
        switch v {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return newlines
        default: return false
        }
    }

    private static func trim(_ s: String, newlines: Bool) -> String {
        let utf8 = s.utf8
        guard let first = utf8.first, let last = utf8.last else { return s }
        func space(_ b: UInt8) -> Bool { newlines ? isASCIIWhitespaceOrNewline(b) : isASCIISpace(b) }
        if first >= 0x80 || last >= 0x80 { return trimScalars(s, newlines: newlines) }
        if !space(first) && !space(last) { return s }
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, space(utf8[start]) { start = utf8.index(after: start) }
        while end > start, space(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        let trimmed = String(decoding: utf8[start..<end], as: UTF8.self)
        if let f = trimmed.utf8.first, let l = trimmed.utf8.last, f >= 0x80 || l >= 0x80 {
            return trimScalars(trimmed, newlines: newlines)
        }
        return trimmed
    }

    /// `trim` scalar by scalar, for text with non-ASCII ends (U+00A0, U+3000… are spaces too).
    private static func trimScalars(_ s: String, newlines: Bool) -> String {
        let scalars = s.unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, isSpace(scalars[start].value, newlines: newlines) { scalars.formIndex(after: &start) }
        while end > start, isSpace(scalars[scalars.index(before: end)].value, newlines: newlines) { scalars.formIndex(before: &end) }
        if start == scalars.startIndex && end == scalars.endIndex { return s }
        return String(scalars[start..<end])
    }

    /// Whether `s` is empty or only whitespace (line breaks are not whitespace here).
    public static func isBlank(_ s: String) -> Bool {
        for b in s.utf8 {
            if isASCIISpace(b) { continue }
            if b < 0x80 { return false }
            return s.unicodeScalars.allSatisfy { isSpace($0.value, newlines: false) }
        }
        return true
    }

    /// True when every byte of `s` is ASCII.
    @inline(__always)
    public static func isASCII(_ s: String) -> Bool {
        for b in s.utf8 where b >= 0x80 { return false }
        return true
    }

    /// ASCII `s` lower-cased byte by byte.
    public static func asciiLowercased(_ s: String) -> String {
        var needs = false
        for b in s.utf8 where b >= 0x41 && b <= 0x5A { needs = true; break }
        guard needs else { return s }
        return String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing whitespace (`.whitespaces`), fast for ASCII ends.
    public var trimmedSpaces: String { FastText.trimSpaces(self) }
    /// Without leading and trailing whitespace and line breaks, fast for ASCII ends.
    public var trimmedSpacesAndNewlines: String { FastText.trimSpacesAndNewlines(self) }
}
