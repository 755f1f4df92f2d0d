/// Why a text cannot be used as an SMS sender ID. Every case says, in plain words, which rule was broken.
public enum SenderIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing (or only spaces) was given.
    case empty
    /// A character outside the allowed set; `position` counts characters from 1.
    case invalidCharacter(String, character: Character, position: Int)
    /// Digits only (numeric sender), but more than 16 of them.
    case numericTooLong(String, length: Int)
    /// Has a letter (alphanumeric sender), but more than 11 characters.
    case alphanumericTooLong(String, length: Int)
    /// Neither digits only nor containing a letter (for example "12 34" or "+").
    case noLetter(String)

    public var description: String {
        switch self {
        case .empty:
            return "the sender ID is empty: use up to 16 digits, or up to 11 letters and digits"
        case .invalidCharacter(let text, let character, let position):
            return "\"\(text)\" has \(SenderID.describe(character)) at position \(position); sender IDs are letters "
                + "A-Z, a-z and digits 0-9 only (a numeric one may start with +)"
        case .numericTooLong(let text, let length):
            return "numeric sender IDs are at most \(SenderID.maxNumericLength) digits; \"\(text)\" has \(length)"
        case .alphanumericTooLong(let text, let length):
            return "alphanumeric sender IDs are at most \(SenderID.maxAlphanumericLength) characters; \"\(text)\" has \(length)"
        case .noLetter(let text):
            return "\"\(text)\" is not a sender ID: numeric ones are digits only (an optional leading +), "
                + "alphanumeric ones need at least one letter"
        }
    }
}

/// A validated SMS sender ID ("from"): either numeric (up to 16 digits, optional leading `+`)
/// or alphanumeric (up to 11 ASCII letters and digits, at least one letter): no spaces, no punctuation,
/// which carriers replace or refuse.
public struct SenderID: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        case numeric
        case alphanumeric
    }

    public static let maxNumericLength = 16
    public static let maxAlphanumericLength = 11

    public let value: String
    public let kind: Kind

    /// Validates `text` exactly as given (no trimming).
    public init(_ text: String) throws(SenderIDError) {
        self.kind = try SenderID.validate(text)
        self.value = text
    }

    public var description: String { value }

    /// Checks `text` against the sender ID rules and returns its kind.
    @discardableResult
    public static func validate(_ text: String) throws(SenderIDError) -> Kind {
        if text.allSatisfy({ $0 == " " }) { throw .empty }
        var position = 0
        var hasLetter = false
        var digits = 0
        for ch in text {
            position += 1
            if isASCIILetter(ch) {
                hasLetter = true
            } else if isASCIIDigit(ch) {
                digits += 1
            } else if !(ch == "+" && position == 1) {
                throw .invalidCharacter(text, character: ch, position: position)
            }
        }
        let length = position
        let numericBody = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        if !numericBody.isEmpty && numericBody.allSatisfy(isASCIIDigit) {
            if digits > maxNumericLength { throw .numericTooLong(text, length: digits) }
            return .numeric
        }
        if !hasLetter { throw .noLetter(text) }
        if text.hasPrefix("+") { throw .invalidCharacter(text, character: "+", position: 1) }
        if length > maxAlphanumericLength { throw .alphanumericTooLong(text, length: length) }
        return .alphanumeric
    }

    /// The broken rule in plain words, or nil when `text` is a valid sender ID. For as-you-type hints.
    public static func problem(_ text: String) -> String? {
        do {
            try validate(text)
            return nil
        } catch {
            return error.description
        }
    }

    static func isASCIILetter(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return (a >= 65 && a <= 90) || (a >= 97 && a <= 122)
    }

    static func isASCIIDigit(_ ch: Character) -> Bool {
        guard let a = ch.asciiValue else { return false }
        return a >= 48 && a <= 57
    }

    /// A character as people can read it in a message: quoted when printable, else its code point.
    static func describe(_ ch: Character) -> String {
        let printable = ch.unicodeScalars.allSatisfy { s in
            switch s.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: return false
            default: return !s.properties.isWhitespace
            }
        }
        if ch == " " { return "a space" }
        if printable { return "\"\(ch)\"" }
        return ch.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(separator: " ")
    }
}

private extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
