/// The fields of a person a message can use as placeholders: the five standard ones Herald fills from the person
/// (`{FIRST_NAME}`, `{LAST_NAME}`, `{ORG}`, `{GROUPS}`, `{EMAIL}`) and the person's own custom fields (`{SHIRT_SIZE}`),
/// and the rule that names a custom field after a CSV column title or a vCard `X-` property.
///
/// A field name is what a template key is: an ASCII capital letter, then capitals, digits or `_`, at most
/// `maxNameLength` characters. A title is made one by folding letters to ASCII (`Veličina` → `VELICINA`), upper-casing,
/// and making every run of other characters one `_` ("Shirt size" → `SHIRT_SIZE`, `X-SHIRT-SIZE` → `SHIRT_SIZE`).
/// A name that would be one of the standard fields or one of the five `ClientField`s is refused, never renamed: the
/// value would otherwise hide, or be hidden by, the one Herald fills itself.
public enum PersonalFields {
    /// The fields every person has, filled from the person itself, in this order.
    public static let standard = ["FIRST_NAME", "LAST_NAME", "ORG", "GROUPS", "EMAIL"]

    /// The names a custom field may not take: the standard fields and the client fields of the wire.
    public static let reserved: Set<String> = Set(standard + ClientField.allCases.map(\.rawValue))

    /// The longest field name kept.
    public static let maxNameLength = 64
    /// The longest value kept.
    public static let maxValueLength = 1_000
    /// The most custom fields a person keeps.
    public static let maxFieldsPerPerson = 50

    /// Every field of `person` that has a value, keyed by field name: the standard ones (`GROUPS` joined with ", ",
    /// `EMAIL` the first address) and every custom field. Empty values (after trimming spaces) are left out, so a
    /// template sees them as missing and uses its fallback.
    public static func values(of person: Person) -> [String: String] {
        var out: [String: String] = [:]
        out.reserveCapacity(person.customFields.count + standard.count)
        for (name, value) in person.customFields where !reserved.contains(name) && !value.trimmedSpaces.isEmpty {
            out[name] = value
        }
        func put(_ name: String, _ value: String?) {
            guard let value = value?.trimmedSpaces, !value.isEmpty else { return }
            out[name] = value
        }
        put("FIRST_NAME", person.firstName)
        put("LAST_NAME", person.lastName)
        put("ORG", person.organization)
        put("GROUPS", person.groups.joined(separator: ", "))
        put("EMAIL", person.emails.first?.address)
        return out
    }

    /// Why a written name cannot be a custom field.
    public enum NameRefusal: Error, Sendable, Hashable, CustomStringConvertible {
        /// No ASCII letter or digit to make a name of ("", "—", "Размер").
        case noLetters(written: String)
        /// The name would be one Herald fills itself.
        case reserved(written: String, name: String)
        /// Longer than `maxNameLength` once made a name.
        case tooLong(written: String, name: String)

        public var description: String {
            switch self {
            case .noLetters(let written):
                return "\"\(TerminalSafeText.sanitize(written))\" has no letters A–Z or digits to name a field; rename it"
            case .reserved(let written, let name):
                return "\"\(TerminalSafeText.sanitize(written))\" would be {\(name)}, a field Herald fills itself; rename it"
            case .tooLong(let written, let name):
                return "\"\(TerminalSafeText.sanitize(String(written.prefix(80))))\" makes a field name of \(name.count) "
                    + "characters; at most \(maxNameLength)"
            }
        }
    }

    /// The field name a CSV column title (or a name typed in the form or on the command line) stands for:
    /// "Shirt size" → `SHIRT_SIZE`, "t-shirt (EU)" → `T_SHIRT_EU`, `shirt_size` → `SHIRT_SIZE`. A title that starts
    /// with a digit gets `F_` in front (`2nd phone` → `F_2ND_PHONE`), as a key must start with a letter.
    public static func fieldName(from title: String) -> Result<String, NameRefusal> {
        let folded = TextFolding.fold(title)
        var name = ""
        name.reserveCapacity(folded.utf8.count)
        var gap = false
        for byte in folded.utf8 {
            let upper: UInt8
            switch byte {
            case 0x61...0x7A: upper = byte - 0x20
            case 0x41...0x5A, 0x30...0x39: upper = byte
            default:
                gap = true
                continue
            }
            if gap, !name.isEmpty { name.append("_") }
            gap = false
            name.unicodeScalars.append(Unicode.Scalar(upper))
        }
        guard let first = name.utf8.first else { return .failure(.noLetters(written: title)) }
        if first >= 0x30 && first <= 0x39 { name = "F_" + name }
        if reserved.contains(name) { return .failure(.reserved(written: title, name: name)) }
        if name.count > maxNameLength { return .failure(.tooLong(written: title, name: name)) }
        return .success(name)
    }

    /// The field name of a vCard property, when it is one Herald keeps as a custom field: an `X-` property that is
    /// not a tool's own bookkeeping (`toolProperty`): `X-SHIRT-SIZE` → `SHIRT_SIZE`. nil for any other property.
    /// The result may still be a refusal (`X-FIRST-NAME` is reserved).
    public static func fieldName(fromVCardProperty property: String) -> Result<String, NameRefusal>? {
        let upper = property.uppercased()
        guard upper.hasPrefix("X-"), upper.count > 2, !isToolProperty(upper) else { return nil }
        // A refusal names the property as written, not what is left of it.
        return fieldName(from: String(property.dropFirst(2))).mapError { refusal in
            switch refusal {
            case .noLetters: return .noLetters(written: property)
            case .reserved(_, let name): return .reserved(written: property, name: name)
            case .tooLong(_, let name): return .tooLong(written: property, name: name)
            }
        }
    }

    /// The vCard property a custom field is written to when the card has no line of it yet: `SHIRT_SIZE` →
    /// `X-SHIRT-SIZE`.
    public static func vCardProperty(for name: String) -> String {
        "X-" + name.replacingOccurrences(of: "_", with: "-")
    }

    /// `X-` properties that address books and sync tools keep for themselves, not a person's data: Apple's
    /// (`X-ABUID`, `X-ABLabel`, `X-ABShowAs`, `X-ADDRESSBOOKSERVER-KIND`, `X-APPLE-…`), Evolution's, Radicale's,
    /// Thunderbird's, KAddressBook's, Outlook's (`X-MS-…`, `X-WAB-…`), Nextcloud's, photo helpers (`X-IMAGETYPE`) and
    /// Herald's own.
    public static let toolPropertyPrefixes = [
        "X-AB", "X-ADDRESSBOOKSERVER-", "X-APPLE-", "X-EVOLUTION-", "X-RADICALE", "X-MOZILLA-", "X-KADDRESSBOOK-",
        "X-MS-", "X-WAB-", "X-NEXTCLOUD", "X-NC-", "X-OWNCLOUD", "X-IMAGE", "X-HERALD-", "X-SOCIALPROFILE",
        "X-KHARD-", "X-VDIRSYNCER", "X-CARDDAV", "X-SABRE", "X-DAVX5", "X-DAVDROID", "X-ANDROID-",
    ]

    /// Whether `property` (any case) is one of `toolPropertyPrefixes`.
    public static func isToolProperty(_ property: String) -> Bool {
        let upper = property.uppercased()
        return toolPropertyPrefixes.contains { upper.hasPrefix($0) }
    }

    /// A custom field's value as kept: control characters other than line breaks dropped (a tab becomes a space),
    /// surrounding spaces and line breaks trimmed; nil when longer than `maxValueLength` characters.
    public static func keptValue(_ value: String) -> String? {
        func isControl(_ s: Unicode.Scalar) -> Bool { (s.value < 0x20 && s != "\n") || (s.value >= 0x7F && s.value < 0xA0) }
        var cleaned = value
        if value.unicodeScalars.contains(where: isControl) {
            var scalars = String.UnicodeScalarView()
            for s in value.unicodeScalars {
                if s == "\t" { scalars.append(" ") } else if !isControl(s) { scalars.append(s) }
            }
            cleaned = String(scalars)
        }
        let trimmed = cleaned.trimmedSpacesAndNewlines
        return trimmed.count > maxValueLength ? nil : trimmed
    }
}
