/// The words of a query as typed, one reader for every query language (Contacts, Deliveries): a plain word, or a term
/// `field:value` whose field the language names; a quoted value is one phrase; `-` before a word or term turns it into
/// "not" (not before a digit: `-5` is a word); a word still being typed (`field:` with no value, an unclosed quote)
/// is read as far as it goes, and an empty one is left out.
nonisolated enum QueryWords {
    struct Word<Field> {
        /// The field the language read at its start; nil for a plain word.
        var field: Field?
        /// The value as typed, unquoted and trimmed (never empty).
        var value: String
        var negated: Bool
    }

    /// The words of `text`. `field` is given a word's head (up to the first space or quote) and answers the field
    /// named at its start and where its value begins, or nil for a plain word.
    static func read<Field>(_ text: String, field: (Substring) -> (Field, Substring.Index)?) -> [Word<Field>] {
        var words: [Word<Field>] = []
        var chars = Substring(text)
        while true {
            chars = chars.drop { $0.isWhitespace }
            guard !chars.isEmpty else { break }
            var negated = false
            if chars.first == "-", chars.count > 1, let next = chars.dropFirst().first, !next.isWhitespace, !next.isNumber {
                negated = true
                chars = chars.dropFirst()
            }
            var named: Field?
            if let (found, valueStart) = field(chars.prefix { !$0.isWhitespace && $0 != "\"" }) {
                named = found
                chars = chars[valueStart...]
            }
            let value: String
            if chars.first == "\"" {
                let body = chars.dropFirst()
                let end = body.firstIndex(of: "\"") ?? body.endIndex
                value = String(body[body.startIndex..<end])
                chars = end == body.endIndex ? body[end...] : body[body.index(after: end)...]
            } else {
                let word = chars.prefix { !$0.isWhitespace }
                value = String(word)
                chars = chars[word.endIndex...]
            }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { continue }
            words.append(Word(field: named, value: trimmed, negated: negated))
        }
        return words
    }

    /// The field named before the first colon of `head` (`status:…`), by its name in any case.
    static func colonField<Field: RawRepresentable>(_ head: Substring) -> (Field, Substring.Index)? where Field.RawValue == String {
        guard let colon = head.firstIndex(of: ":"), let named = Field(rawValue: head[head.startIndex..<colon].lowercased()) else {
            return nil
        }
        return (named, head.index(after: colon))
    }

    /// The digits of a value written as a number (`+385 91-123`), nil when it holds anything else.
    static func numberDigits(_ value: String) -> String? {
        guard value.contains(where: { $0.isASCII && $0.isNumber }),
              value.allSatisfy({ ($0.isASCII && $0.isNumber) || " +-().".contains($0) }) else { return nil }
        return value.filter { $0.isASCII && $0.isNumber }
    }
}
