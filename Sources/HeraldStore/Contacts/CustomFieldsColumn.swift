import Foundation
import HeraldCore
import Logging

/// A person's custom fields as the `person.custom_fields` column keeps them: one JSON object of name → value, its
/// names in order, NULL for a person without any (most people: an import writes nothing more for them).
enum CustomFieldsColumn {
    /// The column's text for `fields`; nil when there are none.
    static func encode(_ fields: [String: String]) -> String? {
        guard !fields.isEmpty else { return nil }
        var out = "{"
        for (i, name) in fields.keys.sorted().enumerated() {
            if i > 0 { out += "," }
            append(name, to: &out)
            out += ":"
            append(fields[name] ?? "", to: &out)
        }
        return out + "}"
    }

    /// The fields the column's text holds; a text that is not such an object (none is written so) reads as none, and
    /// is logged.
    static func decode(_ text: String?) -> [String: String] {
        guard let text, !text.isEmpty else { return [:] }
        do { return try JSONDecoder().decode([String: String].self, from: Data(text.utf8)) } catch {
            Logger(label: "herald.store").warning("a person's custom fields could not be read; shown as none",
                                                  metadata: ["bytes": "\(text.utf8.count)"])
            return [:]
        }
    }

    /// `text` as a JSON string.
    private static func append(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
