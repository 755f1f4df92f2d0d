import Foundation
import HeraldCore

/// Writes a person into a card file as khard and vdirsyncer keep them: the properties Herald knows (FN, N, ORG, TEL,
/// EMAIL, NOTE, REV) are replaced by the person's, written where the first of them stood; every other line (UID,
/// PHOTO, ADR, X-…, their folding too) stays byte for byte, and so do the file's line endings. REV is the time of
/// the write. A grouped number or address (`item1.TEL` with `item1.X-ABLabel`, as Apple's Contacts writes them) keeps
/// its group, so its label stays with it; the label of one that is gone goes too. CATEGORIES (the person's groups)
/// changes only when the groups do: then the card's first CATEGORIES line is written in its place (the others go), or
/// one is added after the managed properties; a person without groups gets none. Custom fields live in their own
/// `X-` lines, changed only where their values do (`FieldLines`).
enum VCardPatch {
    /// The properties Herald writes; a grouped one (`item1.TEL`) counts as its name.
    static let managed: Set<String> = ["FN", "N", "ORG", "TEL", "EMAIL", "NOTE", "REV"]

    /// `original` with the person's properties in place of the managed ones (only its first card is changed); the
    /// X- lines of the custom fields in `removedFields` go.
    static func apply(_ person: Person, to original: String, now: Date, removedFields: Set<String> = []) -> String {
        let ending = original.utf8.contains(0x0D) ? "\r\n" : "\n"
        // By scalars: "\r\n" is one Character, which a split on "\n" would not see.
        var physical = original.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
        }
        let endsWithNewline = physical.last == ""
        if endsWithNewline { physical.removeLast() }
        // Logical lines (a line and its continuations), each kept as written.
        var logical: [[String]] = []
        for line in physical {
            if let first = line.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1].append(line)
            } else {
                logical.append([line])
            }
        }
        var version = "3.0"
        for lines in logical where name(of: lines[0]) == "VERSION" {
            version = String(lines[0].drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces)
            break
        }
        let groups = Groups(firstCardOf: logical, person: person)
        let categories = Categories(firstCardOf: logical, person: person)
        let fields = FieldLines(firstCardOf: logical, person: person, removed: removedFields)
        var fresh = properties(person, version: version, now: now, groups: groups)
        if categories.changed && !categories.hadLine { fresh += categories.lines }
        var out: [String] = []
        var placed = false, inFirstCard = false, done = false, categoriesPlaced = false
        for (index, lines) in logical.enumerated() {
            let property = name(of: lines[0])
            if !done && property == "BEGIN" { inFirstCard = true }
            if inFirstCard && !done {
                if managed.contains(property) {
                    if !placed { out += fresh; placed = true }
                    continue
                }
                if property == "CATEGORIES" && categories.changed {
                    if !categoriesPlaced { out += categories.lines; categoriesPlaced = true }
                    continue
                }
                if let group = group(of: lines[0]), groups.orphaned.contains(group) { continue }
                if let replacement = fields.replaced[index] {
                    out += replacement
                    continue
                }
                if property == "END" {
                    if !placed { out += fresh; placed = true }
                    out += fields.added
                    done = true
                }
            }
            out += lines
        }
        return out.joined(separator: ending) + (endsWithNewline || out.isEmpty ? ending : "")
    }

    /// A new card for `person` (vCard 3.0, as khard writes them; CRLF).
    static func newCard(_ person: Person, uid: String, now: Date) -> String {
        let head: [String] = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Herald//Herald//EN"] + fold("UID:" + VCardWriter.escape(uid))
        let categories = VCardWriter.categories(person.groups).map(fold) ?? []
        let lines: [String] = head + properties(person, version: "3.0", now: now) + categories + fieldLines(person.customFields)
            + ["END:VCARD"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The group of a line (`item1` of `item1.TEL:…`), nil when it has none.
    static func group(of line: String) -> String? {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        guard let dot = head.firstIndex(of: ".") else { return nil }
        return String(head[..<dot])
    }

    /// Which group each of the person's numbers and addresses is written in: the group of the card's property with the
    /// same value, else the next one left over (a number edited in place); groups left without their property.
    struct Groups {
        var phones: [String?] = []
        var emails: [String?] = []
        var orphaned = Set<String>()

        init(firstCardOf logical: [[String]], person: Person) {
            var tel: [(group: String?, value: String)] = [], email: [(group: String?, value: String)] = []
            for lines in logical {
                let property = VCardPatch.name(of: lines[0])
                if property == "END" { break }
                let unfolded = lines.enumerated().map { $0 == 0 ? $1 : String($1.dropFirst()) }.joined()
                let value = String(unfolded.drop { $0 != ":" }.dropFirst())
                if property == "TEL" { tel.append((VCardPatch.group(of: lines[0]), Self.digits(value))) }
                if property == "EMAIL" { email.append((VCardPatch.group(of: lines[0]), value.lowercased())) }
            }
            var used = Set<String>()
            phones = Self.assign(tel, person.phones.map { Self.digits($0.number.e164 ?? $0.number.raw) }, &used)
            emails = Self.assign(email, person.emails.map { $0.address.lowercased() }, &used)
            orphaned = Set((tel + email).compactMap(\.group)).subtracting(used)
        }

        static func digits(_ value: String) -> String { value.filter { $0.isNumber } }

        static func assign(_ originals: [(group: String?, value: String)], _ wanted: [String], _ used: inout Set<String>) -> [String?] {
            var out = [String?](repeating: nil, count: wanted.count)
            for (i, value) in wanted.enumerated() {
                if let g = originals.first(where: { $0.value == value && $0.group.map { !used.contains($0) } ?? false })?.group {
                    out[i] = g
                    used.insert(g)
                }
            }
            // A value no property had takes the next group left over (a number edited in place).
            var left = originals.compactMap(\.group).filter { !used.contains($0) }[...]
            for i in wanted.indices where out[i] == nil {
                guard let g = left.popFirst() else { break }
                out[i] = g
                used.insert(g)
            }
            return out
        }
    }

    /// The card's CATEGORIES against the person's groups: whether they differ (folded, in any order) and the line that
    /// says the person's (none when the person has no groups).
    struct Categories {
        var hadLine = false
        var changed = false
        var lines: [String] = []

        init(firstCardOf logical: [[String]], person: Person) {
            var written: [String] = []
            for lines in logical {
                let property = VCardPatch.name(of: lines[0])
                if property == "END" { break }
                guard property == "CATEGORIES" else { continue }
                hadLine = true
                let unfolded = lines.enumerated().map { $0 == 0 ? $1 : String($1.dropFirst()) }.joined()
                written += CardBuilder.components(String(unfolded.drop { $0 != ":" }.dropFirst()), separator: 0x2C)
            }
            let wanted = PersonGroups.unique(person.groups)
            changed = Set(PersonGroups.unique(written).map(PersonGroups.fold)) != Set(wanted.map(PersonGroups.fold))
            lines = VCardWriter.categories(wanted).map(VCardPatch.fold) ?? []
        }
    }

    /// The upper-cased property name of a line, without its group.
    static func name(of line: String) -> String {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        let bare = head.split(separator: ".", maxSplits: 1).last.map(String.init) ?? String(head)
        return bare.uppercased()
    }

    /// The managed properties of `person`, folded at 75 octets (physical lines).
    static func properties(_ person: Person, version: String, now: Date, groups: Groups? = nil) -> [String] {
        let esc = VCardWriter.escape
        var lines: [String] = []
        lines.append("FN:" + esc(person.formattedName.isEmpty ? person.displayName : person.formattedName))
        lines.append("N:" + [person.lastName, person.firstName, "", "", ""].map(esc).joined(separator: ";"))
        if let org = person.organization, !org.isEmpty { lines.append("ORG:" + esc(org)) }
        let modern = version.hasPrefix("4")
        func grouped(_ group: String??) -> String { (group ?? nil).map { $0 + "." } ?? "" }
        for (i, phone) in person.phones.enumerated() {
            let type = phone.label.map { ";TYPE=" + VCardWriter.paramValue(VCardWriter.vcardType($0)) } ?? ""
            let tel = grouped(groups?.phones[i]) + "TEL"
            if let e164 = phone.number.e164 {
                lines.append(modern ? "\(tel);VALUE=uri\(type):tel:\(e164)" : "\(tel)\(type):\(e164)")
            } else {
                lines.append("\(tel)\(modern ? ";VALUE=text" : "")\(type):" + esc(phone.number.raw))
            }
        }
        for (i, email) in person.emails.enumerated() {
            let type = email.label.map { ";TYPE=" + VCardWriter.paramValue($0) } ?? ""
            lines.append(grouped(groups?.emails[i]) + "EMAIL\(type):" + esc(email.address))
        }
        if let note = person.note, !note.isEmpty { lines.append("NOTE:" + esc(note)) }
        lines.append("REV:" + revision(now))
        return lines.flatMap(fold)
    }

    /// `20261126T031500Z`.
    static func revision(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// One line folded at 75 octets into physical lines (continuations start with a space).
    static func fold(_ line: String) -> [String] {
        VCardWriter.fold(line).components(separatedBy: "\r\n")
    }
}
