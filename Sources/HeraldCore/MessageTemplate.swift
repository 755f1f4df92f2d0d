/// The client placeholders of the social-invite protocol, in their wire order: `clientData[i]`
/// fills the i-th of these.
public enum ClientField: String, Sendable, Hashable, Codable, CaseIterable {
    case senderName = "SENDER_NAME"
    case receiverName = "RECEIVER_NAME"
    case customText = "CUSTOM_TEXT"
    case endUserMSISDN = "END_USER_MSISDN"
    case endUserUsername = "END_USER_USERNAME"

    /// The placeholder as written in a template ("{SENDER_NAME}").
    public var placeholder: String { "{\(rawValue)}" }

    /// The values a `clientData` array carries, keyed by field name; extra entries are ignored.
    public static func values(fromClientData data: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for (field, value) in zip(allCases, data) { out[field.rawValue] = value }
        return out
    }
}

/// One placeholder found in a template's text.
public struct TemplatePlaceholder: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The link placeholder (`<>` by default).
        case link
        /// A `{UPPER_SNAKE}` field; the associated value is the key without braces.
        case field(String)
    }

    public let kind: Kind
    /// Where it sits in the template's `text`.
    public let range: Range<String.Index>
    /// The same place counted in Characters (grapheme clusters) from the start of the text,
    /// which is what a terminal editor's cursor counts.
    public let characterOffsets: Range<Int>
}

/// A template rendered for one recipient.
public struct RenderedMessage: Sendable, Hashable {
    public let text: String
    /// Field keys the template uses that had no value, distinct, in order of first appearance.
    public let missingFields: [String]
    /// Whether the link was put in place of a placeholder (false: appended at the end).
    public let linkWasAppended: Bool

    /// True when every field had a value.
    public var isComplete: Bool { missingFields.isEmpty }
}

/// What `render` does with a field that has no value.
public enum MissingFieldPolicy: Sendable, Hashable {
    /// Leave `{KEY}` in the text as written, so a preview shows what is missing (default).
    case keep
    /// Replace it with nothing.
    case empty
}

/// An invitation text with a link placeholder and client placeholders.
///
/// - The link placeholder (default `<>`, configurable) is replaced by the link wherever it appears;
///   when the text has none, the link is appended at the end after one space (no space when the text
///   is empty or already ends with whitespace). An empty `linkPlaceholder` means "always append".
/// - Fields are `{` + an uppercase letter + uppercase letters, digits or `_` + `}`; the five
///   `ClientField`s are the known ones, any other `{UPPER_SNAKE}` key is allowed but is "unknown":
///   it cannot travel in the wire `clientData`, so it must be filled on this side.
/// - Values are inserted verbatim and never scanned again: a value containing `{X}` or `<>` stays as is.
/// - Anything else in braces (`{lower}`, `{}`, an unclosed `{`) is plain text.
public struct MessageTemplate: Sendable, Hashable, Codable {
    public static let defaultLinkPlaceholder = "<>"

    public var text: String
    public var linkPlaceholder: String

    public init(text: String, linkPlaceholder: String = MessageTemplate.defaultLinkPlaceholder) {
        self.text = text
        self.linkPlaceholder = linkPlaceholder
    }

    /// Every placeholder in the text, in order.
    public var placeholders: [TemplatePlaceholder] {
        tokens().compactMap { token in
            switch token.kind {
            case .literal: return nil
            case .link: return TemplatePlaceholder(kind: .link, range: token.range, characterOffsets: token.offsets)
            case .field(let key): return TemplatePlaceholder(kind: .field(key), range: token.range, characterOffsets: token.offsets)
            }
        }
    }

    /// Whether the text contains the link placeholder (otherwise the link is appended).
    public var hasLinkPlaceholder: Bool {
        placeholders.contains { $0.kind == .link }
    }

    /// Field keys used by the text, distinct, in order of first appearance.
    public var fields: [String] {
        var seen = Set<String>()
        return placeholders.compactMap { p in
            guard case .field(let key) = p.kind, seen.insert(key).inserted else { return nil }
            return key
        }
    }

    /// Field keys used by the text that are not one of the five `ClientField`s.
    public var unknownFields: [String] {
        fields.filter { ClientField(rawValue: $0) == nil }
    }

    /// Field keys used by the text that `values` does not provide. An empty string counts as provided.
    public func missingFields(in values: [String: String]) -> [String] {
        fields.filter { values[$0] == nil }
    }

    /// The text for one recipient: link in place (or appended), fields filled from `values`.
    public func render(link: String, values: [String: String] = [:], missing: MissingFieldPolicy = .keep) -> RenderedMessage {
        var out = ""
        var missingKeys: [String] = []
        var seenMissing = Set<String>()
        var placedLink = false
        // A field that came out empty right after a space ("Hi {RECEIVER_NAME}, …" for a number without a name):
        // the space goes too when punctuation, a space or the end follows, so the text reads "Hi, …", never "Hi , …".
        var gapAfterSpace = false
        for token in tokens() {
            if gapAfterSpace, token.kind == .literal, let next = text[token.range].first, next.isPunctuation || next.isWhitespace {
                out.removeLast()
            }
            gapAfterSpace = false
            switch token.kind {
            case .literal:
                out += text[token.range]
            case .link:
                out += link
                placedLink = true
            case .field(let key):
                let value: String
                if let given = values[key] {
                    value = given
                } else {
                    if seenMissing.insert(key).inserted { missingKeys.append(key) }
                    value = missing == .keep ? String(text[token.range]) : ""
                }
                out += value
                gapAfterSpace = value.isEmpty && out.last == " "
            }
        }
        if gapAfterSpace { out.removeLast() }
        if !placedLink {
            if let last = out.last, !last.isWhitespace { out += " " }
            out += link
        }
        return RenderedMessage(text: out, missingFields: missingKeys, linkWasAppended: !placedLink)
    }

    /// The wire `clientData` array for one recipient: the values of the five `ClientField`s in
    /// their wire order. A field without a value is sent as ""; trailing fields without a value are
    /// left off, so `["Ana", "Marko", "custom text"]` when only the first three are given.
    public static func clientData(from values: [String: String]) -> [String] {
        var data = ClientField.allCases.map { values[$0.rawValue] }
        while let last = data.last, last == nil { data.removeLast() }
        return data.map { $0 ?? "" }
    }

    // MARK: - Scanning

    enum TokenKind: Hashable {
        case literal
        case link
        case field(String)
    }

    struct Token {
        let kind: TokenKind
        let range: Range<String.Index>
        let offsets: Range<Int>
    }

    /// Splits the text into literal runs and placeholders, walking Characters once.
    func tokens() -> [Token] {
        var tokens: [Token] = []
        let linkLength = linkPlaceholder.count
        var literalStart = text.startIndex
        var literalOffset = 0
        var i = text.startIndex
        var offset = 0

        func flushLiteral(upTo end: String.Index, offset endOffset: Int) {
            if literalStart < end {
                tokens.append(Token(kind: .literal, range: literalStart..<end, offsets: literalOffset..<endOffset))
            }
        }

        while i < text.endIndex {
            if linkLength > 0, text[i...].hasPrefix(linkPlaceholder) {
                let end = text.index(i, offsetBy: linkLength)
                flushLiteral(upTo: i, offset: offset)
                tokens.append(Token(kind: .link, range: i..<end, offsets: offset..<(offset + linkLength)))
                i = end
                offset += linkLength
                literalStart = i
                literalOffset = offset
                continue
            }
            if text[i] == "{", let (key, end, length) = fieldKey(at: i) {
                flushLiteral(upTo: i, offset: offset)
                tokens.append(Token(kind: .field(key), range: i..<end, offsets: offset..<(offset + length)))
                i = end
                offset += length
                literalStart = i
                literalOffset = offset
                continue
            }
            i = text.index(after: i)
            offset += 1
        }
        flushLiteral(upTo: text.endIndex, offset: offset)
        return tokens
    }

    /// The `{KEY}` starting at `start`, its end index and its length in Characters.
    private func fieldKey(at start: String.Index) -> (String, String.Index, Int)? {
        var j = text.index(after: start)
        var key = ""
        while j < text.endIndex {
            let ch = text[j]
            if ch == "}" {
                guard let first = key.first, Self.isUpper(first) else { return nil }
                return (key, text.index(after: j), key.count + 2)
            }
            guard Self.isUpper(ch) || Self.isDigit(ch) || ch == "_" else { return nil }
            key.append(ch)
            j = text.index(after: j)
        }
        return nil
    }

    private static func isUpper(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return a >= 65 && a <= 90
    }

    private static func isDigit(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return a >= 48 && a <= 57
    }
}
