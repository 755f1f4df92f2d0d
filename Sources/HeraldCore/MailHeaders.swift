import Foundation

/// The header of an email (RFC 5322), as `contacts add-email` reads it from a mail program's pipe: fields unfolded,
/// encoded words (RFC 2047) decoded, addresses split into names and addresses. Reads at most the header; a body is
/// never looked at.
public struct MailHeaders: Sendable {
    /// Fields in order, names as written.
    public private(set) var fields: [(name: String, value: String)] = []

    /// The most a header may hold; a longer one is cut (a mail program never sends one this big).
    public static let limit = 256 * 1024

    public init(_ text: String) {
        var current: (name: String, value: String)?
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(rawLine)
            if line.isEmpty { break }                                  // the header ends at the first empty line
            if let first = line.first, first == " " || first == "\t" {
                current?.value += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            if let done = current { fields.append(done) }
            guard let colon = line.firstIndex(of: ":") else { current = nil; continue }
            current = (String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                       String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        if let done = current { fields.append(done) }
    }

    /// Reads the header of a mail given as bytes (UTF-8, else Latin-1, as old mail may be).
    public init(data: Data) {
        let head = data.prefix(Self.limit)
        self.init(String(data: head, encoding: .utf8) ?? String(decoding: head, as: UTF8.self))
    }

    /// Every value of the field `name` (case ignored).
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The addresses of the fields `names` (e.g. From, To, Cc), in order, each once.
    public func addresses(_ names: [String]) -> [MailAddress] {
        var seen = Set<String>()
        var out: [MailAddress] = []
        for name in names {
            for value in values(name) {
                for address in MailAddress.list(value) where seen.insert(address.address.lowercased()).inserted {
                    out.append(address)
                }
            }
        }
        return out
    }
}

/// One mailbox of an address field: a display name (decoded, possibly empty) and the address.
public struct MailAddress: Sendable, Hashable {
    public var name: String
    public var address: String

    public init(name: String, address: String) {
        self.name = name
        self.address = address
    }

    /// The mailboxes of an address list ("Ana Kovač <ana@x.hr>, \"Babić, Ivo\" <ivo@y.hr>, maja@z.hr (Maja)").
    /// Groups ("team: a@x, b@y;") give their members; an entry without an address is skipped.
    public static func list(_ value: String) -> [MailAddress] {
        split(value).compactMap(mailbox)
    }

    /// Splits at commas outside quotes, angle brackets and comments; a group's name ("team:") is dropped.
    static func split(_ value: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quoted = false, angle = 0, comment = 0, escaped = false
        for ch in value {
            if escaped { current.append(ch); escaped = false; continue }
            switch ch {
            case "\\" where quoted: escaped = true; current.append(ch)
            case "\"" where comment == 0: quoted.toggle(); current.append(ch)
            case "<" where !quoted && comment == 0: angle += 1; current.append(ch)
            case ">" where !quoted && comment == 0: angle = max(0, angle - 1); current.append(ch)
            case "(" where !quoted: comment += 1; current.append(ch)
            case ")" where !quoted: comment = max(0, comment - 1); current.append(ch)
            case ":" where !quoted && angle == 0 && comment == 0: current = ""          // a group's display name
            case ";" where !quoted && angle == 0 && comment == 0: parts.append(current); current = ""
            case "," where !quoted && angle == 0 && comment == 0: parts.append(current); current = ""
            default: current.append(ch)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func mailbox(_ text: String) -> MailAddress? {
        var name: String
        var address: String
        if let open = text.lastIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            address = String(text[text.index(after: open)..<close])
            name = String(text[..<open])
        } else {
            // "ana@x.hr (Ana Kovač)": the comment is the name.
            var bare = text
            name = ""
            if let open = bare.firstIndex(of: "("), let close = bare.lastIndex(of: ")"), open < close {
                name = String(bare[bare.index(after: open)..<close])
                bare.removeSubrange(open...close)
            }
            address = bare
        }
        address = address.trimmingCharacters(in: .whitespaces)
        guard address.contains("@"), !address.contains(where: \.isWhitespace) else { return nil }
        name = decodeWords(unquote(name.trimmingCharacters(in: .whitespaces)))
        return MailAddress(name: name.trimmingCharacters(in: .whitespaces), address: address)
    }

    /// A quoted display name without its quotes and escapes.
    static func unquote(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        var out = ""
        var escaped = false
        for ch in text.dropFirst().dropLast() {
            if escaped { out.append(ch); escaped = false } else if ch == "\\" { escaped = true } else { out.append(ch) }
        }
        return out
    }

    /// Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?ISO-8859-2?Q?…?=`); whitespace between two of them goes.
    /// A word that cannot be decoded is kept as written.
    public static func decodeWords(_ text: String) -> String {
        guard text.contains("=?") else { return text }
        var out = ""
        var rest = Substring(text)
        var lastWasEncoded = false
        while let start = rest.range(of: "=?") {
            let before = rest[..<start.lowerBound]
            let afterStart = rest[start.upperBound...]
            // charset ? encoding ? text ?=
            let pieces = afterStart.split(separator: "?", maxSplits: 2, omittingEmptySubsequences: false)
            guard pieces.count == 3, let end = pieces[2].range(of: "?=") else { break }
            let charset = String(pieces[0]), encoding = pieces[1].uppercased(), payload = pieces[2][..<end.lowerBound]
            guard let decoded = decodeWord(charset: charset, encoding: encoding, payload: String(payload)) else { break }
            if !(lastWasEncoded && before.allSatisfy(\.isWhitespace)) { out += before }
            out += decoded
            lastWasEncoded = true
            rest = pieces[2][end.upperBound...]
        }
        return out + rest
    }

    /// The character sets mail names come in that Foundation reads everywhere.
    static let charsets: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .ascii, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1,
        "iso-8859-2": .isoLatin2, "windows-1250": .windowsCP1250, "windows-1251": .windowsCP1251,
        "windows-1252": .windowsCP1252, "windows-1253": .windowsCP1253, "windows-1254": .windowsCP1254,
        "utf-16": .utf16, "iso-2022-jp": .iso2022JP, "shift_jis": .shiftJIS, "euc-jp": .japaneseEUC,
    ]

    static func decodeWord(charset: String, encoding: String, payload: String) -> String? {
        let name = (charset.split(separator: "*").first.map(String.init) ?? charset).lowercased()   // RFC 2231 language suffix
        guard let stringEncoding = charsets[name] else { return nil }
        let bytes: Data
        switch encoding {
        case "B":
            guard let data = Data(base64Encoded: payload, options: .ignoreUnknownCharacters) else { return nil }
            bytes = data
        case "Q":
            var data = Data()
            var i = payload.utf8.startIndex
            let utf8 = payload.utf8
            while i < utf8.endIndex {
                let b = utf8[i]
                if b == UInt8(ascii: "_") {
                    data.append(0x20)
                } else if b == UInt8(ascii: "="), let h = utf8.index(i, offsetBy: 2, limitedBy: utf8.endIndex), h < utf8.endIndex,
                          let v = UInt8(String(decoding: utf8[utf8.index(after: i)...h], as: UTF8.self), radix: 16) {
                    data.append(v)
                    i = h
                } else {
                    data.append(b)
                }
                i = utf8.index(after: i)
            }
            bytes = data
        default:
            return nil
        }
        return String(data: bytes, encoding: stringEncoding)
    }
}
