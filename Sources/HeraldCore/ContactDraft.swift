/// A contact as a person writes it: on the command line (`contacts add|edit --phone "mobile: +385…"`) or as the
/// readable card `contacts edit` opens in `$EDITOR`, one field per line (as khard does with YAML). Parsing checks
/// every value and names the line and field of each problem; nothing is stored from a draft with a problem.
public struct ContactDraft: Sendable, Hashable {
    public struct Labeled: Sendable, Hashable {
        public var label: String?
        public var value: String

        public init(label: String?, value: String) {
            self.label = label
            self.value = value
        }
    }

    public var firstName = ""
    public var lastName = ""
    /// The formatted name, when it is more than "first last" (a title, a nickname, an organisation's name).
    public var name = ""
    public var organization = ""
    public var note = ""
    public var phones: [Labeled] = []
    public var emails: [Labeled] = []
    /// The person's custom fields by field name (`SHIRT_SIZE` → "L"), the card's `Field:` lines.
    public var customFields: [String: String] = [:]
    /// The address book a new contact goes to (its card's `Book:` line); nil: none.
    public var book: String?

    public init() {}

    /// A problem with one field of a draft: where it is (line 0 for a command-line value), which field, and why.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var field: String
        public var reason: String

        public init(line: Int, field: String, reason: String) {
            self.line = line
            self.field = field
            self.reason = reason
        }

        public var description: String { line > 0 ? "line \(line), \(field): \(reason)" : "\(field): \(reason)" }
    }

    // MARK: - Limits (as an import keeps them)

    public static let textLimit = 1024
    public static let noteLimit = 4096
    public static let phoneLimit = 64
    public static let emailLimit = 320
    public static let entriesLimit = 100

    // MARK: - The card text

    public static let fields = ["First name", "Last name", "Name", "Organization", "Phone", "Email", "Field", "Book", "Note"]

    /// The same draft with no book named.
    public var withoutBook: ContactDraft {
        var copy = self
        copy.book = nil
        return copy
    }

    /// A new contact's card with a `Book:` line naming where it goes (one of `books`, the first written in; emptied, a
    /// contact of no book). Without books it is `cardText`.
    public func newCardText(books: [String]) -> String {
        guard let first = books.first else { return cardText }
        return cardText + "# Book: one of \(books.joined(separator: ", ")); empty for a contact of no book.\n"
            + "Book: \(book ?? first)\n"
    }

    /// The card as the editor shows it: a short guide in comments, then every field, empty ones too.
    public var cardText: String {
        var lines = [
            "# A contact, one field per line. Save and quit to keep it; empty the file to cancel.",
            "# Phone and Email repeat; \"Phone: mobile: +385 91 234 5678\" gives the number a label.",
            "# \"Field: SHIRT_SIZE: L\" is a field of the person a message can use as {SHIRT_SIZE}; Field repeats.",
            "# Note lines are joined. Lines starting with # are ignored.",
            "First name: \(firstName)",
            "Last name: \(lastName)",
            "Name: \(name)",
            "Organization: \(organization)",
        ]
        for phone in phones { lines.append("Phone: " + Self.labeled(phone)) }
        if phones.isEmpty { lines.append("Phone: ") }
        for email in emails { lines.append("Email: " + Self.labeled(email)) }
        if emails.isEmpty { lines.append("Email: ") }
        for name in customFields.keys.sorted() { lines.append("Field: " + Self.fieldLine(name, customFields[name] ?? "")) }
        if customFields.isEmpty { lines.append("Field: ") }
        let notes = note.split(separator: "\n", omittingEmptySubsequences: false)
        if notes.isEmpty { lines.append("Note: ") }
        for line in notes { lines.append("Note: \(line)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "SHIRT_SIZE: L"; a line break in the value is written `\n`.
    public static func fieldLine(_ name: String, _ value: String) -> String {
        name + ": " + value.replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func labeled(_ entry: Labeled) -> String {
        entry.label.map { "\($0): \(entry.value)" } ?? entry.value
    }

    /// Reads a card written by `cardText` and edited by a person. Throws every problem found, each with its line.
    public static func parse(cardText card: String) throws(ProblemList) -> ContactDraft {
        var draft = ContactDraft()
        var problems: [Problem] = []
        var notes: [String] = []
        // "\r\n" is one Character: lines end at it, at "\n" and at a lone "\r" alike.
        for (index, line) in card.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let trimmed = String(line).trimmedSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                problems.append(Problem(line: number, field: "line", reason: "\"\(Self.shown(trimmed))\" has no field name: write \"Field: value\""))
                continue
            }
            let key = String(trimmed[..<colon]).trimmedSpaces
            let value = String(trimmed[trimmed.index(after: colon)...]).trimmedSpaces
            guard let field = fields.first(where: { $0.lowercased() == key.lowercased() }) else {
                problems.append(Problem(line: number, field: Self.shown(key),
                                        reason: "not a field of a contact: use \(fields.dropLast().joined(separator: ", ")) or Note"))
                continue
            }
            do throws(Problem) {
                switch field {
                case "First name": draft.firstName = try Self.text(value, field, line: number)
                case "Last name": draft.lastName = try Self.text(value, field, line: number)
                case "Name": draft.name = try Self.text(value, field, line: number)
                case "Organization": draft.organization = try Self.text(value, field, line: number)
                case "Note": notes.append(try Self.text(value, field, line: number, limit: noteLimit))
                case "Phone": if !value.isEmpty { draft.phones.append(try Self.phone(value, line: number)) }
                case "Book": draft.book = value.isEmpty ? nil : try Self.text(value, field, line: number)
                case "Field":
                    guard !value.isEmpty, let entry = try Self.field(value, line: number) else { break }
                    guard draft.customFields[entry.0] == nil else {
                        throw Problem(line: number, field: "Field", reason: "{\(entry.0)} is given twice; keep one line of it")
                    }
                    draft.customFields[entry.0] = entry.1
                default: if !value.isEmpty { draft.emails.append(try Self.email(value, line: number)) }
                }
            } catch {
                problems.append(error)
            }
        }
        while notes.last?.isEmpty == true { notes.removeLast() }
        draft.note = notes.joined(separator: "\n")
        do throws(Problem) { try draft.checkTotals(line: 0) } catch { problems.append(error) }
        guard problems.isEmpty else { throw ProblemList(problems: problems) }
        return draft
    }

    /// A card opened again after its problems: they are listed on top (marked "# !", comments to the parser),
    /// numbered as the lines appear under them.
    public static func reopened(_ card: String, problems: ProblemList) -> String {
        let shift = 1 + problems.problems.count
        let lines = problems.problems.map { problem in
            var shown = problem
            if shown.line > 0 { shown.line += shift }
            return problemMark + shown.description
        }
        return ([problemMark + "This card was not stored. Mend these lines (or empty the file to cancel):"] + lines)
            .joined(separator: "\n") + "\n" + withoutProblems(card)
    }

    static let problemMark = "# ! "

    /// A card without the problem lines a reopened card carries on top (the problems' lines are the card's own).
    public static func withoutProblems(_ text: String) -> String {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).filter { !$0.hasPrefix("# !") }.joined(separator: "\n")
    }

    /// Every problem of a card, in line order.
    public struct ProblemList: Error, Sendable, CustomStringConvertible {
        public var problems: [Problem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
    }

    // MARK: - Values, checked

    /// A text field: one line, no control characters, within its limit.
    public static func text(_ value: String, _ field: String, line: Int = 0, limit: Int = textLimit) throws(Problem) -> String {
        if !TerminalSafeText.isAlreadySafe(value),
           let bad = value.unicodeScalars.first(where: { !TerminalSafeText.isAlreadySafe(String($0)) }) {
            throw Problem(line: line, field: field, reason: "holds the control character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(4)), which a contact may not carry")
        }
        guard value.utf8.count <= limit else {
            throw Problem(line: line, field: field, reason: "is \(value.utf8.count) bytes long; at most \(limit)")
        }
        return value
    }

    /// A custom field written "NAME: value" (`Shirt size: L` is `SHIRT_SIZE`, `PersonalFields.fieldName`); nil when
    /// the value is empty (the field is removed). `\n` in the value is a line break.
    public static func field(_ written: String, line: Int = 0) throws(Problem) -> (String, String)? {
        guard let colon = written.firstIndex(of: ":") else {
            throw Problem(line: line, field: "Field", reason: "\"\(shown(written))\" has no value: write \"Field: NAME: value\"")
        }
        let title = String(written[..<colon]).trimmedSpaces
        let value = String(written[written.index(after: colon)...]).trimmedSpaces.replacingOccurrences(of: "\\n", with: "\n")
        let name: String
        switch PersonalFields.fieldName(from: title) {
        case .success(let n): name = n
        case .failure(let refusal): throw Problem(line: line, field: "Field", reason: refusal.description)
        }
        guard !value.isEmpty else { return nil }
        return (name, try fieldValue(value, name: name, line: line))
    }

    /// A custom field's value: no control characters but line breaks, at most `PersonalFields.maxValueLength` characters.
    public static func fieldValue(_ value: String, name: String, line: Int = 0) throws(Problem) -> String {
        for part in value.split(separator: "\n", omittingEmptySubsequences: false) {
            _ = try text(String(part), "Field \(name)", line: line, limit: .max)
        }
        guard value.count <= PersonalFields.maxValueLength else {
            throw Problem(line: line, field: "Field \(name)",
                          reason: "is \(value.count) characters long; at most \(PersonalFields.maxValueLength)")
        }
        return value
    }

    /// A number, optionally labelled ("mobile: +385 91 234 5678", "work: 01 2345 678").
    public static func phone(_ value: String, line: Int = 0) throws(Problem) -> Labeled {
        var entry = split(value, isValue: { part in part.contains { $0.isNumber || $0 == "+" } })
        entry.value = try text(entry.value, "Phone", line: line, limit: phoneLimit)
        if let label = entry.label { entry.label = try text(label, "Phone label", line: line) }
        guard entry.value.contains(where: \.isNumber) else {
            throw Problem(line: line, field: "Phone", reason: "\"\(shown(entry.value))\" has no digits")
        }
        return entry
    }

    /// An address, optionally labelled ("work: ana@acme.hr").
    public static func email(_ value: String, line: Int = 0) throws(Problem) -> Labeled {
        var entry = split(value, isValue: { $0.contains("@") })
        entry.value = try text(entry.value, "Email", line: line, limit: emailLimit)
        if let label = entry.label { entry.label = try text(label, "Email label", line: line) }
        let parts = entry.value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
              !entry.value.contains(where: \.isWhitespace) else {
            throw Problem(line: line, field: "Email", reason: "\"\(shown(entry.value))\" is not an email address (name@example.com)")
        }
        return entry
    }

    /// "label: value" split at the first colon when what comes before it is a label, not part of the value.
    private static func split(_ text: String, isValue: (Substring) -> Bool) -> Labeled {
        if let colon = text.firstIndex(of: ":") {
            let label = String(text[..<colon]).trimmedSpaces
            if !label.isEmpty, !isValue(Substring(label)) {
                return Labeled(label: label.lowercased(), value: String(text[text.index(after: colon)...]).trimmedSpaces)
            }
        }
        return Labeled(label: nil, value: text.trimmedSpaces)
    }

    /// At most `entriesLimit` numbers and addresses, and something to know the person by.
    public func checkTotals(line: Int) throws(Problem) {
        if phones.count > Self.entriesLimit {
            throw Problem(line: line, field: "Phone", reason: "\(phones.count) numbers; a contact keeps at most \(Self.entriesLimit)")
        }
        if emails.count > Self.entriesLimit {
            throw Problem(line: line, field: "Email", reason: "\(emails.count) addresses; a contact keeps at most \(Self.entriesLimit)")
        }
        if customFields.count > PersonalFields.maxFieldsPerPerson {
            throw Problem(line: line, field: "Field",
                          reason: "\(customFields.count) fields; a contact keeps at most \(PersonalFields.maxFieldsPerPerson)")
        }
        if (firstName + lastName + name + organization).trimmedSpaces.isEmpty && phones.isEmpty && emails.isEmpty {
            throw Problem(line: line, field: "Name", reason: "a contact needs a name, an organization, a number or an email")
        }
    }

    /// A value as it may be quoted in a problem: printable, and short.
    static func shown(_ value: some StringProtocol) -> String {
        let safe = TerminalSafeText.sanitize(String(value))
        return safe.count > 40 ? String(safe.prefix(39)) + "…" : safe
    }

    // MARK: - To and from a person

    /// A whole name as first and last: "Ana Marija Kovač" → ("Ana Marija", "Kovač"), "Kovač, Ana" → ("Ana", "Kovač");
    /// one word is a first name.
    public static func nameParts(_ name: String) -> (first: String, last: String) {
        let trimmed = name.trimmedSpaces
        if let comma = trimmed.firstIndex(of: ","), trimmed.filter({ $0 == "," }).count == 1 {
            return (String(trimmed[trimmed.index(after: comma)...]).trimmedSpaces, String(trimmed[..<comma]).trimmedSpaces)
        }
        let words = trimmed.split(separator: " ")
        guard words.count > 1 else { return (trimmed, "") }
        return (words.dropLast().joined(separator: " "), String(words[words.count - 1]))
    }

    public init(_ p: Person) {
        firstName = p.firstName
        lastName = p.lastName
        let plain = [p.firstName, p.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        name = p.formattedName == plain ? "" : p.formattedName
        organization = p.organization ?? ""
        note = p.note ?? ""
        phones = p.phones.map { Labeled(label: $0.label, value: $0.number.raw) }
        emails = p.emails.map { Labeled(label: $0.label, value: $0.address) }
        customFields = p.customFields
    }

    /// `base` (a stored person, or a new one) with this draft's fields; numbers are read with `parser`, and a number
    /// already stored keeps its reading.
    public func applied(to base: Person, parser: PhoneNumberParser) -> Person {
        var p = base
        p.firstName = firstName
        p.lastName = lastName
        p.formattedName = name
        p.organization = organization.isEmpty ? nil : organization
        p.note = note.isEmpty ? nil : note
        p.phones = phones.map { entry in
            let number = base.phones.first { $0.number.raw == entry.value }?.number ?? parser.parse(entry.value)
            return LabeledPhone(label: entry.label, number: number)
        }
        p.emails = emails.map { LabeledEmail(label: $0.label, address: $0.value) }
        p.customFields = customFields.filter { !$0.value.isEmpty }
        if let chosen = p.smsNumber, !p.phones.contains(where: { $0.number.e164 == chosen }) { p.smsNumber = nil }
        return p
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
