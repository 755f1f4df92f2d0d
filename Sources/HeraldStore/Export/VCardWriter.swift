import Foundation
import HeraldCore

/// Writes people as vCard 4.0 (CRLF, lines folded at 75 octets, text escaped).
public enum VCardWriter {
    public static func card(_ p: Person) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:4.0"]
        if let uid = p.uid { lines.append("UID:" + escape(uid)) }
        lines.append("FN:" + escape(p.displayName))
        lines.append("N:" + [p.lastName, p.firstName, "", "", ""].map(escape).joined(separator: ";"))
        if let org = p.organization { lines.append("ORG:" + escape(org)) }
        for ph in p.phones {
            let type = ph.label.map { ";TYPE=" + paramValue(vcardType($0)) } ?? ""
            if let e164 = ph.number.e164 {
                lines.append("TEL;VALUE=uri\(type):tel:\(e164)")
            } else {
                lines.append("TEL;VALUE=text\(type):" + escape(ph.number.raw))
            }
        }
        for e in p.emails {
            let type = e.label.map { ";TYPE=" + paramValue($0) } ?? ""
            lines.append("EMAIL\(type):" + escape(e.address))
        }
        if let note = p.note { lines.append("NOTE:" + escape(note)) }
        if let categories = categories(p.groups) { lines.append(categories) }
        // Custom fields as the X- lines they are read from (`X-SHIRT-SIZE:L`), so an export imports them again.
        for name in p.customFields.keys.sorted() where !(p.customFields[name] ?? "").isEmpty {
            lines.append(PersonalFields.vCardProperty(for: name) + ":" + escape(p.customFields[name] ?? ""))
        }
        if let rev = p.revision {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withYear, .withMonth, .withDay, .withTime, .withTimeZone]
            lines.append("REV:" + f.string(from: rev).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: ""))
        }
        lines.append("END:VCARD")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The CATEGORIES line of `groups` (each escaped, commas between them); nil when there are none.
    static func categories(_ groups: [String]) -> String? {
        groups.isEmpty ? nil : "CATEGORIES:" + groups.map(escape).joined(separator: ",")
    }

    /// vCard TYPE for a label ("mobile" → "cell").
    static func vcardType(_ label: String) -> String {
        switch label {
        case "mobile": return "cell"
        case "work mobile": return "work,cell"
        case "work fax": return "work,fax"
        case "home fax": return "home,fax"
        default: return label
        }
    }

    static func paramValue(_ v: String) -> String {
        let clean = v.replacingOccurrences(of: "\"", with: "'")
        return clean.contains(where: { ";:".contains($0) || $0 == " " }) ? "\"\(clean)\"" : clean
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            case "\r": break
            default: out.append(ch)
            }
        }
        return out
    }

    /// Folds a line at 75 octets without splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var out = ""
        var count = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if count + size > 75 {
                out += "\r\n "
                count = 1
            }
            out.unicodeScalars.append(scalar)
            count += size
        }
        return out
    }
}
