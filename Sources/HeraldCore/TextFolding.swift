import Foundation

/// Folds text for searching and sorting: lowercase, no diacritics, a few letters that folding
/// leaves alone mapped by hand (đ, ł, ø, æ, ß…), and a Latin transliteration appended for
/// other scripts so that "ivan" finds "Иван".
///
/// ASCII text takes a byte-level path; only other text goes through Foundation and ICU.
public enum TextFolding {
    private static let manual: [Character: String] = [
        "đ": "d", "ð": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t",
    ]

    /// Case- and diacritic-insensitive form of `text`, without transliteration.
    public static func fold(_ text: String) -> String {
        if FastText.isASCII(text) { return FastText.asciiLowercased(text) }
        var folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        if !folded.utf8.allSatisfy({ $0 < 0x80 }) && folded.contains(where: { manual[$0] != nil }) {
            var out = ""
            out.reserveCapacity(folded.utf8.count)
            for ch in folded {
                if let m = manual[ch] { out += m } else { out.append(ch) }
            }
            folded = out
        }
        return folded
    }

    /// Whether `text` holds letters outside Latin script (Cyrillic, Greek, CJK…).
    public static func hasNonLatinLetters(_ text: String) -> Bool {
        if FastText.isASCII(text) { return false }
        for scalar in text.unicodeScalars where scalar.value >= 0x250 {
            if scalar.properties.isAlphabetic && !(0x1E00...0x1EFF).contains(scalar.value) { return true }
        }
        return false
    }

    /// The folded text, followed by its folded Latin transliteration when the text is in another script.
    public static func searchForm(_ text: String) -> String {
        let folded = fold(text)
        guard hasNonLatinLetters(text),
              let latin = text.applyingTransform(.toLatin, reverse: false) else { return folded }
        let latinFolded = fold(latin)
        return latinFolded == folded ? folded : folded + " " + latinFolded
    }
}
