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
        /// A `{UPPER_SNAKE}` field; the associated value is the key without braces (and without a fallback).
        case field(String)
    }

    public let kind: Kind
    /// What a field written `{KEY|fallback}` becomes when the recipient has no value for it (or an empty one); nil
    /// for `{KEY}` and for the link. `{KEY|}` has the empty fallback: blank is what the writer asked for.
    public let fallback: String?
    /// Where it sits in the template's `text` (the whole `{KEY|fallback}`).
    public let range: Range<String.Index>
    /// The same place counted in Characters (grapheme clusters) from the start of the text,
    /// which is what a terminal editor's cursor counts.
    public let characterOffsets: Range<Int>

    init(kind: Kind, fallback: String? = nil, range: Range<String.Index>, characterOffsets: Range<Int>) {
        self.kind = kind
        self.fallback = fallback
        self.range = range
        self.characterOffsets = characterOffsets
    }
}

/// A template rendered for one recipient.
public struct RenderedMessage: Sendable, Hashable {
    public let text: String
    /// Field keys the template uses that had neither a value nor a fallback, distinct, in order of first appearance.
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
/// - A field may carry a fallback: `{FIRST_NAME|there}` — `|` right after the key, then any text without `}` or a
///   line break, up to the closing `}`. The fallback is used when the value is missing or empty; such a field is never
///   missing. `{KEY|}` falls back to nothing, on purpose.
/// - Values and fallbacks are inserted verbatim and never scanned again: `{X}` or `<>` in them stays as is.
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
            case .field(let key, let fallback):
                return TemplatePlaceholder(kind: .field(key), fallback: fallback, range: token.range, characterOffsets: token.offsets)
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

    /// Field keys used by the text that `values` does not provide, where at least one use of the key has no fallback.
    /// An empty string counts as provided (a field with a fallback uses the fallback instead; see `render`).
    public func missingFields(in values: [String: String]) -> [String] {
        var seen = Set<String>()
        return placeholders.compactMap { p in
            guard case .field(let key) = p.kind, p.fallback == nil, values[key] == nil, seen.insert(key).inserted else { return nil }
            return key
        }
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
            case .field(let key, let fallback):
                let value: String
                if let fallback, (values[key] ?? "").isEmpty {
                    value = fallback
                } else if let given = values[key] {
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
        case field(String, fallback: String?)
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
            if text[i] == "{", let (key, fallback, end, length) = fieldKey(at: i) {
                flushLiteral(upTo: i, offset: offset)
                tokens.append(Token(kind: .field(key, fallback: fallback), range: i..<end, offsets: offset..<(offset + length)))
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

    /// The `{KEY}` or `{KEY|fallback}` starting at `start`: the key, the fallback, its end index and its length in
    /// Characters.
    private func fieldKey(at start: String.Index) -> (String, String?, String.Index, Int)? {
        var j = text.index(after: start)
        var key = ""
        while j < text.endIndex {
            let ch = text[j]
            if ch == "}" || ch == "|" {
                guard let first = key.first, Self.isUpper(first) else { return nil }
                guard ch == "|" else { return (key, nil, text.index(after: j), key.count + 2) }
                return fallback(after: j).map { fallback, end in (key, fallback, end, key.count + fallback.count + 3) }
            }
            guard Self.isUpper(ch) || Self.isDigit(ch) || ch == "_" else { return nil }
            key.append(ch)
            j = text.index(after: j)
        }
        return nil
    }

    /// The fallback after the `|` at `bar` up to the closing `}`, and the index after it; nil when a line break or the
    /// end of the text comes first (then the whole `{KEY|…` is plain text).
    private func fallback(after bar: String.Index) -> (String, String.Index)? {
        var j = text.index(after: bar)
        var fallback = ""
        while j < text.endIndex {
            let ch = text[j]
            if ch == "}" { return (fallback, text.index(after: j)) }
            if ch.isNewline { return nil }
            fallback.append(ch)
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
