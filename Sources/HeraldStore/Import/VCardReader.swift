import Foundation
import HeraldCore

/// Reads vCard 2.1, 3.0 and 4.0 cards from a line stream: folding, escaping, quoted-printable with
/// charsets and soft line breaks, grouped properties, bare 2.1 parameters, `tel:` URIs.
///
/// Whatever the input, the work stays linear and bounded per card: lines are cut at
/// `LineReader.maxLineBytes` (folded ones too), a card keeps its first `FieldLimits.propertiesPerCard`
/// lines, `phonesPerPerson` numbers and `emailsPerPerson` emails, a property its first
/// `parametersPerProperty` parameters; each cut is reported with its line.
struct VCardReader {
    private var lines: LineReader
    private let parser: PhoneParseCache
    private let dates: RevisionDates
    private var pending: [(bytes: [UInt8], line: Int, truncated: Bool)] = []

    init(lines: LineReader, parser: PhoneParseCache, dates: RevisionDates = RevisionDates()) {
        self.lines = lines
        self.parser = parser
        self.dates = dates
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

    private static let quotedPrintableName = Array("QUOTED-PRINTABLE".utf8)

    /// Whether the parameters (before the first ":") mention QUOTED-PRINTABLE, in any case.
    private static func isQuotedPrintable(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: 0x3A), colon >= quotedPrintableName.count,
              bytes[..<colon].contains(0x3B) else { return false }
        let needle = quotedPrintableName
        var i = 0
        while i + needle.count <= colon {
            var j = 0
            while j < needle.count {
                let b = bytes[i + j]
                if (b >= 0x61 && b <= 0x7A ? b - 0x20 : b) != needle[j] { break }
                j += 1
            }
            if j == needle.count { return true }
            i += 1
        }
        return false
    }

    private static let beginVCard = Array("BEGIN:VCARD".utf8)

    /// `BEGIN:VCARD` in any case, with spaces around or a byte-order mark before it.
    private static func isBegin(_ bytes: [UInt8]) -> Bool {
        var s = 0, e = bytes.count
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { s = 3 }
        while s < e, FastText.isASCIISpace(bytes[s]) { s += 1 }
        while e > s, FastText.isASCIISpace(bytes[e - 1]) { e -= 1 }
        guard e - s == beginVCard.count else { return false }
        for k in 0..<beginVCard.count {
            let b = bytes[s + k]
            if (b >= 0x61 && b <= 0x7A ? b - 0x20 : b) != beginVCard[k] { return false }
        }
        return true
    }

    /// The next card, or nil at the end of the stream.
    mutating func next() throws -> SourceRecord? {
        // Find BEGIN:VCARD.
        var beginLine = 0
        while true {
            guard let l = try logical() else { return nil }
            if Self.isBegin(l.bytes) {
                beginLine = l.line
                break
            }
            let text = FastText.trimSpaces(String(decoding: l.bytes, as: UTF8.self))
            return .failure(line: l.line, message: "expected BEGIN:VCARD, found \"\(Self.preview(text))\"")
        }
        var card = CardBuilder(parser: parser, dates: dates)
        var count = 0
        var ignored = 0
        while true {
            guard let l = try logical() else {
                return .failure(line: beginLine, message: "card is not closed: END:VCARD is missing at the end of the file")
            }
            count += 1
            if count > FieldLimits.propertiesPerCard {
                // Past the limit only the end of the card matters: no parameters, no values.
                let name = VCardProperty.head(l.bytes)?.name
                if name == "END" { break }
                if name == "BEGIN" {
                    pending.append((l.bytes, l.line, l.truncated))
                    return .failure(line: beginLine, message: "card is not closed: END:VCARD is missing before line \(l.line)")
                }
                if ignored == 0 {
                    card.note(l.line, "card has more than \(FieldLimits.propertiesPerCard) lines: the lines from here to END:VCARD ignored")
                }
                ignored += 1
                continue
            }
            let property = VCardProperty(bytes: l.bytes)
            let name = property.name
            if name == "END" { break }
            if name == "BEGIN" {
                pending.append((l.bytes, l.line, l.truncated))
                return .failure(line: beginLine, message: "card is not closed: END:VCARD is missing before line \(l.line)")
            }
            if l.truncated && name != "PHOTO" {
                card.note(l.line, "\(Self.preview(name)) line is longer than \(lines.maxLineBytes) bytes: cut")
            }
            if property.malformed {
                card.note(l.line, "line has no \":\": \"\(Self.preview(String(decoding: l.bytes.prefix(256), as: UTF8.self)))\" ignored")
                continue
            }
            if property.droppedParameters > 0 {
                card.note(l.line, "\(Self.preview(name)) has \(property.params.count + property.droppedParameters) parameters: "
                          + "kept the first \(FieldLimits.parametersPerProperty)")
            }
            card.add(property, line: l.line)
        }
        return card.finish(line: beginLine)
    }

    /// The start of a line for an error message; control characters are written visibly (`\r`, `\t`,
    /// `\u{1B}`), never as spaces, so the message shows what is really in the file.
    static func preview(_ s: String) -> String {
        let cut = s.count > 40 ? String(s.prefix(40)) + "…" : s
        var out = ""
        for scalar in cut.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return TerminalSafeText.sanitize(out)
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
    /// Parameters beyond `FieldLimits.parametersPerProperty`, not kept.
    var droppedParameters = 0

    init(bytes: [UInt8]) {
        guard let head = Self.head(bytes) else {
            name = ""
            params = []
            value = []
            malformed = true
            return
        }
        group = head.group
        name = head.name
        value = Array(bytes[(head.colon + 1)...])
        if head.semi < head.colon {
            (params, droppedParameters) = Self.parameters(bytes[(head.semi + 1)..<head.colon])
        } else {
            params = []
        }
    }

    /// Group and name (upper-cased) of a content line, where its parameters start (`semi`, the
    /// colon when there are none) and its value's colon; nil when the line has no colon.
    /// Straight from the bytes: this runs for every line of a big import.
    static func head(_ bytes: [UInt8]) -> (group: String?, name: String, semi: Int, colon: Int)? {
        var inQuotes = false
        var colon: Int?
        var semi: Int?
        for (i, b) in bytes.enumerated() {
            if b == 0x22 { inQuotes.toggle() } else if b == 0x3A && !inQuotes { colon = i; break }
            if b == 0x3B && semi == nil { semi = i }
        }
        guard let colon else { return nil }
        let end = semi ?? colon
        // Most names are written plain ("TEL", "EMAIL"): no group, spaces or lower case to undo.
        if !bytes[..<end].contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x2E || ($0 >= 0x61 && $0 <= 0x7A) }) {
            return (nil, String(decoding: bytes[..<end], as: UTF8.self), end, colon)
        }
        return slowHead(bytes, semi: end, colon: colon)
    }

    private static func slowHead(_ bytes: [UInt8], semi: Int, colon: Int) -> (group: String?, name: String, semi: Int, colon: Int) {
        var nameBytes = bytes[..<semi].filter { $0 != 0x20 && $0 != 0x09 }[...]
        var group: String?
        if let dot = nameBytes.lastIndex(of: 0x2E) {
            group = String(decoding: nameBytes[..<dot], as: UTF8.self).lowercased()
            nameBytes = nameBytes[(dot + 1)...]
        }
        let name = String(decoding: nameBytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
        return (group, name, semi, colon)
    }

    private static let bareEncodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B"]

    /// `TYPE=cell,voice;CHARSET="x"` split into names and values, straight from the bytes: the
    /// first `FieldLimits.parametersPerProperty`, and how many more there were.
    private static func parameters(_ bytes: ArraySlice<UInt8>) -> ([(name: String, values: [String])], Int) {
        var result: [(name: String, values: [String])] = []
        var dropped = 0
        var start = bytes.startIndex
        var inQuotes = false
        var i = bytes.startIndex
        while i <= bytes.endIndex {
            let atEnd = i == bytes.endIndex
            if !atEnd && bytes[i] == 0x22 { inQuotes.toggle() }
            if atEnd || (bytes[i] == 0x3B && !inQuotes) {
                if result.count < FieldLimits.parametersPerProperty {
                    result.append(parameter(bytes[start..<i]))
                } else {
                    dropped += 1
                }
                start = i + 1
            }
            i += 1
        }
        return (result, dropped)
    }

    private static func trimmedString(_ bytes: ArraySlice<UInt8>) -> String {
        var s = bytes.startIndex, e = bytes.endIndex
        while s < e, FastText.isASCIISpace(bytes[s]) { s += 1 }
        while e > s, FastText.isASCIISpace(bytes[e - 1]) { e -= 1 }
        let text = String(decoding: bytes[s..<e], as: UTF8.self)
        if let f = text.utf8.first, let l = text.utf8.last, f >= 0x80 || l >= 0x80 { return FastText.trimSpaces(text) }
        return text
    }

    private static func parameter(_ p: ArraySlice<UInt8>) -> (name: String, values: [String]) {
        if let eq = p.firstIndex(of: 0x3D) {
            let written = p[..<eq]
            let n = written.contains(where: { $0 >= 0x61 && $0 <= 0x7A })
                ? trimmedString(written.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }[...]) : trimmedString(written)
            var v = p[(eq + 1)...]
            if v.contains(0x22) { v = v.filter { $0 != 0x22 }[...] }
            return (n, v.split(separator: 0x2C, omittingEmptySubsequences: true).map { trimmedString($0) })
        }
        // vCard 2.1 bare parameter: TEL;CELL: or EMAIL;INTERNET:
        let bare = trimmedString(p)
        if bareEncodings.contains(bare.uppercased()) { return ("ENCODING", [bare]) }
        return ("TYPE", [bare])
    }

    /// The first value of parameter `name`, if any.
    func firstParam(_ name: String) -> String? {
        for p in params where p.name == name { if let v = p.values.first { return v } }
        return nil
    }

    var types: [String] {
        var out: [String] = []
        for p in params where p.name == "TYPE" {
            for v in p.values { out.append(FastText.isASCII(v) ? FastText.asciiLowercased(v) : v.lowercased()) }
        }
        return out
    }
}

/// Gathers one card's properties into a Person.
struct CardBuilder {
    let parser: PhoneParseCache
    let dates: RevisionDates
    var person = Person()
    private(set) var issues: [(line: Int, message: String)] = []
    /// Problems beyond `FieldLimits.issuesPerCard`, counted only.
    var unlistedIssues = 0
    var phoneGroups: [(index: Int, group: String)] = []
    var groupLabels: [String: String] = [:]
    var sawN = false
    /// `KIND:org`: the card is an organisation, not a person.
    var kindIsOrg = false
    /// `KIND:group`: the card is a group of the cards its `MEMBER`s name.
    var kindIsGroup = false
    var members: [String] = []
    /// Numbers and emails beyond the limits of one person, and the line of the first of each.
    var extraPhones = (count: 0, line: 0)
    var extraEmails = (count: 0, line: 0)
    /// The card's `X-` properties that are a person's own fields (not a tool's bookkeeping, not grouped).
    var fields = CustomFieldGatherer()

    init(parser: PhoneParseCache, dates: RevisionDates) {
        self.parser = parser
        self.dates = dates
    }

    /// Notes a problem that does not stop the card; past `FieldLimits.issuesPerCard` they are counted.
    mutating func note(_ line: Int, _ message: String) {
        if issues.count < FieldLimits.issuesPerCard { issues.append((line, message)) } else { unlistedIssues += 1 }
    }

    mutating func text(_ p: VCardProperty, line: Int) -> String {
        let encoding = p.firstParam("ENCODING")?.uppercased()
        var bytes = p.value
        if encoding == "QUOTED-PRINTABLE" { bytes = TextDecoding.quotedPrintable(bytes) }
        let charset = p.firstParam("CHARSET")
        let (text, lossy) = TextDecoding.decode(bytes, charset: charset)
        if lossy { note(line, "\(VCardReader.preview(p.name)) is not valid UTF-8: unreadable bytes replaced with �") }
        if let charset, TextDecoding.encoding(named: charset) == nil {
            note(line, "\(VCardReader.preview(p.name)) uses unknown charset \(VCardReader.preview(charset)): read as UTF-8")
        }
        return text
    }

    mutating func clamp(_ value: String, _ limit: Int, _ field: String, line: Int) -> String {
        let (v, message) = FieldLimits.clamp(value, limit, field: field)
        if let message { note(line, message) }
        return v
    }

    static func unescape(_ s: Substring) -> String {
        guard s.utf8.contains(0x5C) else { return String(s) }
        return unescape(bytes: s.utf8[...])
    }

    /// Undoes vCard escaping (`\n`, `\,`, `\;`, `\\`) on UTF-8 bytes; every escape is ASCII.
    static func unescape<C: Collection<UInt8>>(bytes: C) -> String {
        guard bytes.contains(0x5C) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var escaping = false
        for b in bytes {
            if escaping {
                out.append(b == 0x6E || b == 0x4E ? 0x0A : b)
                escaping = false
            } else if b == 0x5C {
                escaping = true
            } else {
                out.append(b)
            }
        }
        if escaping { out.append(0x5C) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Splits a structured value on unescaped separators, then unescapes each component; at most
    /// `maxParts` of them (the last holds the rest, separators and all).
    static func components(_ s: String, separator: UInt8 = 0x3B, maxParts: Int = .max) -> [String] {
        let utf8 = Array(s.utf8)
        var parts: [String] = []
        var start = 0
        var escaping = false
        for (i, b) in utf8.enumerated() {
            if escaping { escaping = false } else if b == 0x5C { escaping = true } else if b == separator {
                if parts.count + 1 >= maxParts { break }
                parts.append(unescape(bytes: utf8[start..<i]))
                start = i + 1
            }
        }
        parts.append(unescape(bytes: utf8[start...]))
        return parts
    }

    static let labelNames: [String: String] = [
        "cell": "mobile", "mobile": "mobile", "iphone": "iphone", "work": "work", "home": "home", "fax": "fax",
        "main": "main", "pager": "pager", "other": "other", "car": "car", "video": "video", "text": "text",
    ]

    private static let extensionPrefix = Array("X-".utf8)

    static let ignoredTypes: Set<String> = ["voice", "pref", "internet", "x400", "msg", "bbs", "modem", "isdn", "pcs"]

    static func label(_ types: [String]) -> String? {
        let ignored = ignoredTypes
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
                .trimmedSpacesAndNewlines
        case "N":
            sawN = true
            let parts = Self.components(text(p, line: line), maxParts: 3)
            person.lastName = clamp(parts[0], FieldLimits.text, "N (family name)", line: line).trimmedSpaces
            if parts.count > 1 {
                person.firstName = clamp(parts[1], FieldLimits.text, "N (given name)", line: line).trimmedSpaces
            }
        case "KIND":
            let kind = text(p, line: line).trimmedSpaces.lowercased()
            kindIsOrg = kind == "org"
            kindIsGroup = kind == "group"
        case "MEMBER":
            if members.count < FieldLimits.membersPerGroup, let uid = GroupCard.memberUID(Self.unescape(Substring(text(p, line: line)))) {
                members.append(uid)
            }
        case "CATEGORIES":
            let names = Self.components(text(p, line: line), separator: 0x2C)
            person.groups = PersonGroups.unique(person.groups + names)
            if person.groups.count > FieldLimits.groupsPerPerson {
                person.groups.removeLast(person.groups.count - FieldLimits.groupsPerPerson)
                note(line, "card has more than \(FieldLimits.groupsPerPerson) groups: kept the first \(FieldLimits.groupsPerPerson)")
            }
        case "ORG":
            // Units past the first `FieldLimits.text` cannot show in the kept length: not split off.
            var units = Self.components(text(p, line: line), maxParts: FieldLimits.text + 1)
            if units.count > FieldLimits.text { units.removeLast() }
            let parts = units.map { $0.trimmedSpaces }.filter { !$0.isEmpty }
            let org = clamp(parts.joined(separator: ", "), FieldLimits.text, "ORG", line: line)
            person.organization = org.isEmpty ? nil : org
        case "TEL":
            if person.phones.count >= FieldLimits.phonesPerPerson {
                if extraPhones.count == 0 { extraPhones.line = line }
                extraPhones.count += 1
                return
            }
            var raw = Self.unescape(Substring(text(p, line: line))).trimmedSpaces
            // A `tel:` URI (vCard 4.0) keeps only the number: "tel:+385-98-765-4321;ext=2" → "+385-98-765-4321".
            if raw.utf8.count > 4, raw.utf8.prefix(4).map({ $0 | 0x20 }) == Array("tel:".utf8) {
                let number = raw.dropFirst(4)
                raw = String(number[..<(number.firstIndex(of: ";") ?? number.endIndex)]).trimmedSpaces
            }
            if raw.isEmpty { return }
            raw = clamp(raw, FieldLimits.phone, "TEL", line: line)
            person.phones.append(LabeledPhone(label: Self.label(p.types), number: parser.parse(raw)))
            if let g = p.group { phoneGroups.append((person.phones.count - 1, g)) }
        case "EMAIL":
            if person.emails.count >= FieldLimits.emailsPerPerson {
                if extraEmails.count == 0 { extraEmails.line = line }
                extraEmails.count += 1
                return
            }
            let address = clamp(Self.unescape(Substring(text(p, line: line))).trimmedSpaces,
                                FieldLimits.email, "EMAIL", line: line)
            if address.isEmpty { return }
            person.emails.append(LabeledEmail(label: Self.label(p.types), address: address))
        case "NOTE":
            let note = clamp(Self.unescape(Substring(text(p, line: line))), FieldLimits.note, "NOTE", line: line).trimmedSpacesAndNewlines
            if !note.isEmpty { person.note = person.note.map { $0 + "\n" + note } ?? note }
        case "UID":
            let uid = clamp(text(p, line: line).trimmedSpaces, FieldLimits.text, "UID", line: line)
            person.uid = uid.isEmpty ? nil : uid
        case "REV":
            person.revision = dates.date(text(p, line: line))
        case "PHOTO":
            person.hasPhoto = !p.value.isEmpty
        case "X-ABLABEL":
            if let g = p.group {
                var label = text(p, line: line)
                if label.hasPrefix("_$!<") && label.hasSuffix(">!$_") { label = String(label.dropFirst(4).dropLast(4)) }
                groupLabels[g] = label.lowercased()
            }
        default:
            // `X-SHIRT-SIZE:L`, a custom field; a grouped one (`item1.X-ABDATE`) means something only with its label.
            guard p.group == nil, p.name.utf8.starts(with: Self.extensionPrefix),
                  let name = PersonalFields.fieldName(fromVCardProperty: p.name) else { return }
            let value = Self.unescape(Substring(text(p, line: line)))
            if let problem = fields.add(name, title: p.name, value: value, line: line) { note(line, problem) }
        }
    }

    mutating func finish(line: Int) -> SourceRecord {
        if extraPhones.count > 0 {
            note(extraPhones.line, "card has \(FieldLimits.phonesPerPerson + extraPhones.count) phone numbers: "
                 + "kept the first \(FieldLimits.phonesPerPerson)")
        }
        if extraEmails.count > 0 {
            note(extraEmails.line, "card has \(FieldLimits.emailsPerPerson + extraEmails.count) emails: "
                 + "kept the first \(FieldLimits.emailsPerPerson)")
        }
        person.customFields = fields.fields
        if let excess = fields.excess { note(excess.line, "card has " + excess.message) }
        if unlistedIssues > 0 {
            issues.append((issues.last?.line ?? line, "\(unlistedIssues) more problems in this card not listed"))
        }
        for (index, group) in phoneGroups {
            if let label = groupLabels[group], person.phones[index].label == nil || person.phones[index].label == "voice" {
                person.phones[index].label = label
            }
        }
        if kindIsGroup {
            let name = PersonGroups.clean(person.formattedName.isEmpty ? person.displayName : person.formattedName)
            guard !name.isEmpty, let uid = person.uid else {
                return .failure(line: line, message: "group card (KIND:group) has no FN or no UID: skipped")
            }
            return .group(GroupCard(name: name, uid: uid, members: members), line: line)
        }
        if person.formattedName.isEmpty && !person.firstName.isEmpty || person.formattedName.isEmpty && !person.lastName.isEmpty {
            person.formattedName = [person.firstName, person.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        }
        // An organisation's card (KIND:org, or FN the same as ORG) names no person: its name is not split.
        let isOrganisation = kindIsOrg || (person.organization.map { $0 == person.formattedName } ?? false)
        if !sawN && !isOrganisation && person.firstName.isEmpty && person.lastName.isEmpty && !person.formattedName.isEmpty {
            // vCard 4.0 allows a card without N: take the parts from FN.
            let words = person.formattedName.split(separator: " ")
            if words.count >= 2 {
                person.firstName = words.dropLast().joined(separator: " ")
                person.lastName = String(words[words.count - 1])
            } else {
                person.firstName = person.formattedName
            }
        }
        let hasName = !(FastText.isBlank(person.formattedName) && FastText.isBlank(person.firstName)
                         && FastText.isBlank(person.lastName))
        if !hasName && person.organization == nil && person.phones.isEmpty && person.emails.isEmpty {
            return .failure(line: line, message: "card has no name, organisation, phone number or email: skipped")
        }
        return .person(person, line: line, issues: issues)
    }
}

/// Reads vCard REV dates. An ISO 8601 formatter costs far more to make than to use, so one
/// instance per format lives for the whole import (one reading thread uses it).
final class RevisionDates {
    private static let formats: [ISO8601DateFormatter.Options] = [
        [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds],
        [.withYear, .withMonth, .withDay, .withTime, .withTimeZone],
        [.withYear, .withMonth, .withDay, .withTime],
        [.withFullDate], [.withYear, .withMonth, .withDay],
    ]
    private lazy var formatters: [ISO8601DateFormatter] = Self.formats.map { options in
        let f = ISO8601DateFormatter()
        f.formatOptions = options
        return f
    }

    /// The date `s` writes in one of the formats REV uses, nil when none fits.
    func date(_ s: String) -> Date? {
        let t = s.trimmedSpaces
        // Every format starts with a digit; anything longer than a timestamp with fractions is none.
        guard let first = t.utf8.first, first >= 0x30 && first <= 0x39, t.utf8.count <= 64 else { return nil }
        for f in formatters {
            if let d = f.date(from: t) { return d }
        }
        return nil
    }
}
