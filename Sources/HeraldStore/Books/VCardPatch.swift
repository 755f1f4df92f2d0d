import Foundation
import HeraldCore

/// Writes a person into a card file as khard and vdirsyncer keep them: the properties Herald knows (FN, N, ORG, TEL,
/// EMAIL, NOTE, REV) are replaced by the person's, written where the first of them stood; every other line (UID,
/// PHOTO, ADR, X-…, their folding too) stays byte for byte, and so do the file's line endings. REV is the time of
/// the write.
enum VCardPatch {
    /// The properties Herald writes; a grouped one (`item1.TEL`) counts as its name.
    static let managed: Set<String> = ["FN", "N", "ORG", "TEL", "EMAIL", "NOTE", "REV"]

    /// `original` with the person's properties in place of the managed ones (only its first card is changed).
    static func apply(_ person: Person, to original: String, now: Date) -> String {
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
        let fresh = properties(person, version: version, now: now)
        var out: [String] = []
        var placed = false, inFirstCard = false, done = false
        for lines in logical {
            let property = name(of: lines[0])
            if !done && property == "BEGIN" { inFirstCard = true }
            if inFirstCard && !done {
                if managed.contains(property) {
                    if !placed { out += fresh; placed = true }
                    continue
                }
                if property == "END" {
                    if !placed { out += fresh; placed = true }
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
        let lines: [String] = head + properties(person, version: "3.0", now: now) + ["END:VCARD"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The upper-cased property name of a line, without its group.
    static func name(of line: String) -> String {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        let bare = head.split(separator: ".", maxSplits: 1).last.map(String.init) ?? String(head)
        return bare.uppercased()
    }

    /// The managed properties of `person`, folded at 75 octets (physical lines).
    static func properties(_ person: Person, version: String, now: Date) -> [String] {
        let esc = VCardWriter.escape
        var lines: [String] = []
        lines.append("FN:" + esc(person.formattedName.isEmpty ? person.displayName : person.formattedName))
        lines.append("N:" + [person.lastName, person.firstName, "", "", ""].map(esc).joined(separator: ";"))
        if let org = person.organization, !org.isEmpty { lines.append("ORG:" + esc(org)) }
        let modern = version.hasPrefix("4")
        for phone in person.phones {
            let type = phone.label.map { ";TYPE=" + VCardWriter.paramValue(VCardWriter.vcardType($0)) } ?? ""
            if let e164 = phone.number.e164 {
                lines.append(modern ? "TEL;VALUE=uri\(type):tel:\(e164)" : "TEL\(type):\(e164)")
            } else {
                lines.append("TEL\(modern ? ";VALUE=text" : "")\(type):" + esc(phone.number.raw))
            }
        }
        for email in person.emails {
            let type = email.label.map { ";TYPE=" + VCardWriter.paramValue($0) } ?? ""
            lines.append("EMAIL\(type):" + esc(email.address))
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
