import Foundation
import HeraldCore

/// Reads vCard 2.1, 3.0 and 4.0 cards from a line stream: folding, escaping, quoted-printable with
/// charsets and soft line breaks, grouped properties, bare 2.1 parameters, `tel:` URIs.
struct VCardReader {
    private var lines: LineReader
    private let parser: PhoneNumberParser
    private var pending: [(bytes: [UInt8], line: Int, truncated: Bool)] = []

    init(lines: LineReader, parser: PhoneNumberParser) {
        self.lines = lines
        self.parser = parser
    }

    var bytesRead: Int { lines.bytesRead }

    /// A property line after unfolding: where it started and its raw bytes.
    private struct Logical {
        var bytes: [UInt8]
        var line: Int
        var truncated: Bool
    }

    private mutating func physical() throws -> (bytes: [UInt8], line: Int, truncated: Bool)? {
        if let p = pending.popLast() { return p }
        guard let l = try lines.next() else { return nil }
        return (l.bytes, lines.lineNumber, l.truncated)
    }

    /// The next unfolded logical line.
    private mutating func logical() throws -> Logical? {
        guard var first = try physical() else { return nil }
        while first.bytes.isEmpty {
            guard let n = try physical() else { return nil }
            first = n
        }
        var current = Logical(bytes: first.bytes, line: first.line, truncated: first.truncated)
        let qp = Self.isQuotedPrintable(current.bytes)
        while let next = try physical() {
            if let b = next.bytes.first, b == 0x20 || b == 0x09 {
                current.bytes.append(contentsOf: next.bytes.dropFirst())
            } else if qp && current.bytes.last == 0x3D {
                // quoted-printable soft line break: "=" at the end, continue on the next line.
                current.bytes.removeLast()
                current.bytes.append(contentsOf: next.bytes)
            } else {
                pending.append(next)
                break
            }
            current.truncated = current.truncated || next.truncated
            if current.bytes.count > lines.maxLineBytes {
                current.bytes.removeLast(current.bytes.count - lines.maxLineBytes)
                current.truncated = true
            }
        }
        return current
    }

    private static func isQuotedPrintable(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: 0x3A) else { return false }
        return String(decoding: bytes[..<colon], as: UTF8.self).uppercased().contains("QUOTED-PRINTABLE")
    }

    /// The next card, or nil at the end of the stream.
    mutating func next() throws -> SourceRecord? {
        // Find BEGIN:VCARD.
        var beginLine = 0
        while true {
            guard let l = try logical() else { return nil }
            let text = String(decoding: l.bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if text.uppercased() == "BEGIN:VCARD" || text.uppercased().hasSuffix("BEGIN:VCARD") && text.unicodeScalars.first == "\u{FEFF}" {
                beginLine = l.line
                break
            }
            return .failure(line: l.line, message: "expected BEGIN:VCARD, found \"\(Self.preview(text))\"")
        }
        var card = CardBuilder(parser: parser)
        while true {
            guard let l = try logical() else {
                return .failure(line: beginLine, message: "card is not closed: END:VCARD is missing at the end of the file")
            }
            let property = VCardProperty(bytes: l.bytes)
            let name = property.name
            if name == "END" { break }
            if name == "BEGIN" {
                pending.append((l.bytes, l.line, l.truncated))
                return .failure(line: beginLine, message: "card is not closed: END:VCARD is missing before line \(l.line)")
            }
            if l.truncated && name != "PHOTO" {
                card.issues.append((l.line, "\(name) line is longer than \(lines.maxLineBytes) bytes: cut"))
            }
            if property.malformed {
                card.issues.append((l.line, "line has no \":\": \"\(Self.preview(String(decoding: l.bytes, as: UTF8.self)))\" ignored"))
                continue
            }
            card.add(property, line: l.line)
        }
        return card.finish(line: beginLine)
    }

    static func preview(_ s: String) -> String {
        let cut = s.count > 40 ? String(s.prefix(40)) + "…" : s
        return TerminalSafeText.sanitize(cut)
    }
}

/// One content line: group, name, parameters and raw value bytes.
struct VCardProperty {
    var group: String?
    var name: String
    /// Parameter names upper-cased; values as written (several values split on commas).
    var params: [(name: String, values: [String])]
    var value: [UInt8]
    var malformed = false

    init(bytes: [UInt8]) {
        var inQuotes = false
        var colon: Int?
        for (i, b) in bytes.enumerated() {
            if b == 0x22 { inQuotes.toggle() } else if b == 0x3A && !inQuotes { colon = i; break }
        }
        guard let colon else {
            name = ""
            params = []
            value = []
            malformed = true
            return
        }
        value = Array(bytes[(colon + 1)...])
        // Name (and group) straight from the bytes: this runs for every line of a big import.
        let semi = bytes[..<colon].firstIndex(of: 0x3B) ?? colon
        var nameBytes = bytes[..<semi].filter { $0 != 0x20 && $0 != 0x09 }[...]
        if let dot = nameBytes.lastIndex(of: 0x2E) {
            group = String(decoding: nameBytes[..<dot], as: UTF8.self).lowercased()
            nameBytes = nameBytes[(dot + 1)...]
        }
        name = String(decoding: nameBytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
        guard semi < colon else {
            params = []
            return
        }
        let parts = String(decoding: bytes[(semi + 1)..<colon], as: UTF8.self)
            .split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        params = parts.map { p in
            if let eq = p.firstIndex(of: "=") {
                let n = p[..<eq].trimmingCharacters(in: .whitespaces).uppercased()
                let v = p[p.index(after: eq)...].replacingOccurrences(of: "\"", with: "")
                return (n, v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            // vCard 2.1 bare parameter: TEL;CELL: or EMAIL;INTERNET:
            let bare = p.trimmingCharacters(in: .whitespaces)
            let upper = bare.uppercased()
            if ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B"].contains(upper) { return ("ENCODING", [bare]) }
            return ("TYPE", [bare])
        }
    }

    func param(_ name: String) -> [String] {
        params.filter { $0.name == name }.flatMap(\.values)
    }

    var types: [String] { param("TYPE").map { $0.lowercased() } }
}

/// Gathers one card's properties into a Person.
private struct CardBuilder {
    let parser: PhoneNumberParser
    var person = Person()
    var issues: [(line: Int, message: String)] = []
    var phoneGroups: [(index: Int, group: String)] = []
    var groupLabels: [String: String] = [:]
    var sawN = false

    init(parser: PhoneNumberParser) { self.parser = parser }

    mutating func text(_ p: VCardProperty, line: Int) -> String {
        let encoding = p.param("ENCODING").first?.uppercased()
        var bytes = p.value
        if encoding == "QUOTED-PRINTABLE" { bytes = TextDecoding.quotedPrintable(bytes) }
        let charset = p.param("CHARSET").first
        let (text, lossy) = TextDecoding.decode(bytes, charset: charset)
        if lossy { issues.append((line, "\(p.name) is not valid UTF-8: unreadable bytes replaced with �")) }
        if let charset, TextDecoding.encoding(named: charset) == nil {
            issues.append((line, "\(p.name) uses unknown charset \(charset): read as UTF-8"))
        }
        return text
    }

    mutating func clamp(_ value: String, _ limit: Int, _ field: String, line: Int) -> String {
        let (v, message) = FieldLimits.clamp(value, limit, field: field)
        if let message { issues.append((line, message)) }
        return v
    }

    static func unescape(_ s: Substring) -> String {
        guard s.contains("\\") else { return String(s) }
        var out = ""
        var escaping = false
        for ch in s {
            if escaping {
                switch ch {
                case "n", "N": out.append("\n")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        if escaping { out.append("\\") }
        return out
    }

    /// Splits a structured value on unescaped separators, then unescapes each component.
    static func components(_ s: String, separator: Character = ";") -> [String] {
        var parts: [String] = []
        var current = Substring()
        var start = s.startIndex
        var i = s.startIndex
        var escaping = false
        while i < s.endIndex {
            let ch = s[i]
            if escaping { escaping = false } else if ch == "\\" { escaping = true } else if ch == separator {
                current = s[start..<i]
                parts.append(unescape(current))
                start = s.index(after: i)
            }
            i = s.index(after: i)
        }
        parts.append(unescape(s[start...]))
        return parts
    }

    static let labelNames: [String: String] = [
        "cell": "mobile", "mobile": "mobile", "iphone": "iphone", "work": "work", "home": "home", "fax": "fax",
        "main": "main", "pager": "pager", "other": "other", "car": "car", "video": "video", "text": "text",
    ]

    static func label(_ types: [String]) -> String? {
        let ignored: Set<String> = ["voice", "pref", "internet", "x400", "msg", "bbs", "modem", "isdn", "pcs"]
        let meaningful = types.filter { !ignored.contains($0) }
        if meaningful.contains("cell") || meaningful.contains("mobile") {
            return meaningful.contains("work") ? "work mobile" : "mobile"
        }
        if meaningful.contains("fax") { return meaningful.contains("work") ? "work fax" : (meaningful.contains("home") ? "home fax" : "fax") }
        guard let first = meaningful.first else { return nil }
        return labelNames[first] ?? (first.hasPrefix("x-") ? String(first.dropFirst(2)) : first)
    }

    mutating func add(_ p: VCardProperty, line: Int) {
        switch p.name {
        case "FN":
            person.formattedName = clamp(Self.unescape(Substring(text(p, line: line))), FieldLimits.text, "FN", line: line)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        case "N":
            sawN = true
            let parts = Self.components(text(p, line: line))
            person.lastName = clamp(parts[0], FieldLimits.text, "N (family name)", line: line).trimmingCharacters(in: .whitespaces)
            if parts.count > 1 {
                person.firstName = clamp(parts[1], FieldLimits.text, "N (given name)", line: line).trimmingCharacters(in: .whitespaces)
            }
        case "ORG":
            let parts = Self.components(text(p, line: line)).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            let org = clamp(parts.joined(separator: ", "), FieldLimits.text, "ORG", line: line)
            person.organization = org.isEmpty ? nil : org
        case "TEL":
            var raw = Self.unescape(Substring(text(p, line: line))).trimmingCharacters(in: .whitespaces)
            if raw.isEmpty { return }
            raw = clamp(raw, FieldLimits.phone, "TEL", line: line)
            person.phones.append(LabeledPhone(label: Self.label(p.types), number: parser.parse(raw)))
            if let g = p.group { phoneGroups.append((person.phones.count - 1, g)) }
        case "EMAIL":
            let address = clamp(Self.unescape(Substring(text(p, line: line))).trimmingCharacters(in: .whitespaces),
                                FieldLimits.email, "EMAIL", line: line)
            if address.isEmpty { return }
            person.emails.append(LabeledEmail(label: Self.label(p.types), address: address))
        case "UID":
            let uid = clamp(text(p, line: line).trimmingCharacters(in: .whitespaces), FieldLimits.text, "UID", line: line)
            person.uid = uid.isEmpty ? nil : uid
        case "REV":
            person.revision = Self.date(text(p, line: line))
        case "PHOTO":
            person.hasPhoto = !p.value.isEmpty
        case "X-ABLABEL":
            if let g = p.group {
                var label = text(p, line: line)
                if label.hasPrefix("_$!<") && label.hasSuffix(">!$_") { label = String(label.dropFirst(4).dropLast(4)) }
                groupLabels[g] = label.lowercased()
            }
        default:
            break
        }
    }

    static func date(_ s: String) -> Date? {
        let t = s.trimmingCharacters(in: .whitespaces)
        let f = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
                                                       [.withYear, .withMonth, .withDay, .withTime, .withTimeZone],
                                                       [.withYear, .withMonth, .withDay, .withTime],
                                                       [.withFullDate], [.withYear, .withMonth, .withDay]] {
            f.formatOptions = options
            if let d = f.date(from: t) { return d }
        }
        return nil
    }

    mutating func finish(line: Int) -> SourceRecord {
        for (index, group) in phoneGroups {
            if let label = groupLabels[group], person.phones[index].label == nil || person.phones[index].label == "voice" {
                person.phones[index].label = label
            }
        }
        if person.formattedName.isEmpty && !person.firstName.isEmpty || person.formattedName.isEmpty && !person.lastName.isEmpty {
            person.formattedName = [person.firstName, person.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        }
        if !sawN && person.firstName.isEmpty && person.lastName.isEmpty && !person.formattedName.isEmpty {
            // vCard 4.0 allows a card without N: take the parts from FN.
            let words = person.formattedName.split(separator: " ")
            if words.count >= 2 {
                person.firstName = words.dropLast().joined(separator: " ")
                person.lastName = String(words[words.count - 1])
            } else {
                person.firstName = person.formattedName
            }
        }
        if !person.hasName && person.organization == nil && person.phones.isEmpty && person.emails.isEmpty {
            return .failure(line: line, message: "card has no name, organisation, phone number or email: skipped")
        }
        return .person(person, line: line, issues: issues)
    }
}
