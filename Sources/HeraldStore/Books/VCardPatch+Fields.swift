import Foundation
import HeraldCore

extension VCardPatch {
    /// The card's custom-field lines (`X-SHIRT-SIZE:L`) against the person's custom fields. A line is a field's when
    /// the importer would read it as one (ungrouped, not a tool's bookkeeping, a name it may take, a value it keeps,
    /// within a person's number of fields); every other `X-` line is none of Herald's business and stays as it is.
    /// A field whose value is the same keeps its line byte for byte; a changed one is written in place of its first
    /// line (the property's name as the card spells it), one in `removed` loses its lines, a new one is added before
    /// END:VCARD as `X-NAME:value`. A field line the person has no field of and that was not removed stays as it is
    /// (a value the importer cut, a caller that knows nothing of fields).
    struct FieldLines {
        /// What becomes of a logical line of the first card (by its index): new physical lines, or none (dropped).
        var replaced: [Int: [String]] = [:]
        /// Lines for fields the card has no line of yet.
        var added: [String] = []

        init(firstCardOf logical: [[String]], person: Person, removed: Set<String>) {
            var seen = Set<String>()
            // Fields whose first line was kept as it is: their later lines stay too (the importer reads only the first).
            var kept = Set<String>()
            for (index, lines) in logical.enumerated() {
                let property = VCardPatch.name(of: lines[0])
                if property == "END" { break }
                guard property.hasPrefix("X-"), VCardPatch.group(of: lines[0]) == nil,
                      case .success(let name)? = PersonalFields.fieldName(fromVCardProperty: property) else { continue }
                let unfolded = lines.enumerated().map { $0 == 0 ? $1 : String($1.dropFirst()) }.joined()
                let written = CardBuilder.unescape(Substring(unfolded.drop { $0 != ":" }.dropFirst()))
                guard let value = PersonalFields.keptValue(written), !value.isEmpty else { continue }
                if !seen.contains(name) {
                    guard seen.count < PersonalFields.maxFieldsPerPerson else { continue }
                    seen.insert(name)
                    if person.customFields[name] == value || (person.customFields[name] == nil && !removed.contains(name)) {
                        kept.insert(name)
                    } else if let wanted = person.customFields[name], !wanted.isEmpty {
                        let spelled = String(lines[0].prefix { $0 != ":" && $0 != ";" })
                        replaced[index] = VCardPatch.fold(spelled + ":" + VCardWriter.escape(wanted))
                    } else {
                        replaced[index] = []
                    }
                } else if !kept.contains(name) {
                    replaced[index] = []
                }
            }
            added = VCardPatch.fieldLines(person.customFields.filter { !seen.contains($0.key) })
        }
    }

    /// `X-NAME:value` lines of `fields` (by name; empty values left out), folded.
    static func fieldLines(_ fields: [String: String]) -> [String] {
        fields.keys.sorted().flatMap { name -> [String] in
            guard let value = fields[name], !value.isEmpty, !PersonalFields.reserved.contains(name) else { return [] }
            return fold(PersonalFields.vCardProperty(for: name) + ":" + VCardWriter.escape(value))
        }
    }
}
