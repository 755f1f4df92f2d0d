/// Group names as people write them (`Running club`, `running  CLUB`, `Trčanje`): compared case- and
/// diacritic-insensitively, as names are (`TextFolding.fold`), with runs of spaces made one.
public enum PersonGroups {
    /// The longest group name kept.
    public static let maxLength = 100

    /// The form two group names are the same by.
    public static func fold(_ name: String) -> String {
        TextFolding.fold(clean(name))
    }

    /// The name as shown and stored: control characters dropped, spaces trimmed and made single, cut at `maxLength`.
    public static func clean(_ name: String) -> String {
        let safe = TerminalSafeText.sanitize(name)
        let words = safe.split(whereSeparator: { $0.isWhitespace })
        return String(words.joined(separator: " ").prefix(maxLength))
    }

    /// `names` cleaned, without empty ones and without a second of the same folded name (the first spelling kept).
    public static func unique<S: Sequence<String>>(_ names: S) -> [String] {
        var seen = Set<String>(), out: [String] = []
        for name in names {
            let cleaned = clean(name)
            guard !cleaned.isEmpty, seen.insert(TextFolding.fold(cleaned)).inserted else { continue }
            out.append(cleaned)
        }
        return out
    }

    /// `groups` with `added` put in (unless there under another spelling) and `removed` taken out.
    public static func edited(_ groups: [String], adding added: [String], removing removed: [String]) -> [String] {
        let gone = Set(removed.map(fold))
        return unique(groups + added).filter { !gone.contains(fold($0)) }
    }
}
