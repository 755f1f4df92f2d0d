import Foundation
import HeraldCore

/// Maps CSV rows to people. Understands Google Contacts exports (old "Given Name/Family Name" and
/// new "First Name/Last Name" headers, " ::: " multi-values), Outlook exports, and plain CSV with
/// name/first/last/phone/email/organization/notes headers (any case). Every other column is kept as a custom field
/// named after its title ("Shirt size" → `SHIRT_SIZE`, `PersonalFields`); Google's "Custom Field 1 - Label/Value"
/// pair is named by the row's label.
struct CSVContactReader {
    private var records: CSVRecordReader
    private let parser: PhoneParseCache
    private var columns: [Column]?
    /// Problems of the header that skip no row (a column that cannot be a field), told with the first person read.
    private var headerIssues: [(line: Int, message: String)] = []

    init(records: CSVRecordReader, parser: PhoneParseCache) {
        self.records = records
        self.parser = parser
    }

    var bytesRead: Int { records.bytesRead }

    enum Role: Equatable {
        case first, middle, last, full, org, nickname, uid, note
        /// A column kept as the custom field of this name; `title` as written, for messages.
        case field(name: String, title: String)
        /// Google's "Custom Field N - Value": the field named by the row's "- Label" (or "- Type") column, else `title`.
        case labeledField(title: String, labelColumn: Int?)
        /// Google's "Labels" (" ::: " between them), Outlook's "Categories" (";" between them): the person's groups.
        case groups(separator: String)
        case phone(label: String?, labelColumn: Int?)
        case email(label: String?, labelColumn: Int?)
        case ignored
    }

    struct Column { var role: Role }

    static func normalise(_ header: String) -> String {
        header.trimmingCharacters(in: .whitespaces).lowercased()
            .replacingOccurrences(of: "_", with: " ")
    }

    /// Works out what each header means.
    static func columns(for headers: [String]) -> [Column] {
        let names = headers.map(normalise)
        // First column of each name: a lookup per column, not a scan (headers may be many).
        var firstIndex: [String: Int] = [:]
        for (i, n) in names.enumerated() where firstIndex[n] == nil { firstIndex[n] = i }
        func index(of wanted: String) -> Int? { firstIndex[wanted] }
        return names.enumerated().map { i, h -> Column in
            switch h {
            case "given name", "first name", "first", "firstname", "given", "forename": return Column(role: .first)
            case "additional name", "middle name", "middle": return Column(role: .middle)
            case "family name", "last name", "last", "lastname", "surname", "family": return Column(role: .last)
            case "name", "full name", "fullname", "display name", "fn", "contact name": return Column(role: .full)
            case "nickname": return Column(role: .nickname)
            case "notes", "note": return Column(role: .note)
            case "uid", "id": return Column(role: .uid)
            case "labels", "group membership", "groups", "group": return Column(role: .groups(separator: " ::: "))
            case "categories", "category": return Column(role: .groups(separator: ";"))
            case "organization", "organisation", "org", "company", "organization 1 - name", "organization name",
                 "company name":
                return Column(role: .org)
            default: break
            }
            // Google: "Phone 1 - Value" with "Phone 1 - Type" (old) or "Phone 1 - Label" (new).
            if h.hasSuffix(" - value") {
                let stem = String(h.dropLast(" - value".count))
                let labelColumn = index(of: stem + " - type") ?? index(of: stem + " - label")
                if stem.hasPrefix("phone") { return Column(role: .phone(label: nil, labelColumn: labelColumn)) }
                if stem.hasPrefix("e-mail") || stem.hasPrefix("email") {
                    return Column(role: .email(label: nil, labelColumn: labelColumn))
                }
                let title = String(headers[i].trimmedSpaces.dropLast(" - value".count))
                if stem.hasPrefix("custom field") { return Column(role: .labeledField(title: title, labelColumn: labelColumn)) }
                return field(title)
            }
            if h.hasSuffix(" - type") || h.hasSuffix(" - label") { return Column(role: .ignored) }
            // Outlook and plain files.
            if h.contains("e-mail") || h.contains("email") || h == "mail" {
                if h.contains("type") || h.contains("display") { return Column(role: .ignored) }
                let label: String? = h.contains("2") ? "other" : (h.contains("3") ? "other" : nil)
                return Column(role: .email(label: label, labelColumn: nil))
            }
            let phoneWords = ["phone", "mobile", "tel", "telephone", "cell", "fax", "pager", "number", "msisdn"]
            if phoneWords.contains(where: { h.contains($0) }) {
                var label: String?
                if h.contains("mobile") || h.contains("cell") { label = "mobile" }
                else if h.contains("business") || h.contains("work") || h.contains("company") { label = h.contains("fax") ? "work fax" : "work" }
                else if h.contains("home") { label = h.contains("fax") ? "home fax" : "home" }
                else if h.contains("fax") { label = "fax" }
                else if h.contains("pager") { label = "pager" }
                else if h.contains("car") { label = "car" }
                else if h.contains("primary") || h.contains("main") { label = "main" }
                else if h.contains("other") { label = "other" }
                return Column(role: .phone(label: label, labelColumn: nil))
            }
            return field(headers[i])
        }
    }

    /// A column Herald has no place for: the custom field its title names (an untitled column is left out).
    private static func field(_ title: String) -> Column {
        let written = title.trimmedSpaces
        guard !written.isEmpty else { return Column(role: .ignored) }
        switch PersonalFields.fieldName(from: written) {
        case .success(let name): return Column(role: .field(name: name, title: written))
        case .failure: return Column(role: .field(name: "", title: written))   // refused: told once, by `checkFields`
        }
    }

    /// The header's field columns checked once: a title that cannot name a field, or names the same field as a
    /// column before it, is left out with a problem (told with the first person).
    private static func checkFields(_ columns: inout [Column], line: Int) -> [(line: Int, message: String)] {
        var issues: [(line: Int, message: String)] = []
        var taken: [String: String] = [:]
        for i in columns.indices {
            guard case .field(let name, let title) = columns[i].role else { continue }
            if name.isEmpty, case .failure(let refusal) = PersonalFields.fieldName(from: title) {
                issues.append((line, "column \(refusal) (its values are not kept)"))
                columns[i].role = .ignored
            } else if let first = taken[name] {
                issues.append((line, "column \"\(TerminalSafeText.sanitize(title))\" would be the field {\(name)} as column "
                               + "\"\(TerminalSafeText.sanitize(first))\" is: only the first is kept"))
                columns[i].role = .ignored
            } else {
                taken[name] = title
            }
        }
        return issues
    }

    mutating func next() throws -> SourceRecord? {
        if columns == nil {
            guard let header = try records.next() else { return nil }
            // A header whose quote does not close keeps the columns before that field.
            let fields = header.unterminatedQuote ? Array(header.fields.dropLast()) : header.fields
            let names = fields.map { TextDecoding.decode($0).text }
            var cols = Self.columns(for: names)
            headerIssues = Self.checkFields(&cols, line: header.line)
            columns = cols
            let useful = cols.contains {
                switch $0.role {
                case .ignored, .field, .labeledField: return false
                default: return true
                }
            }
            if !useful {
                return .failure(line: header.line, message:
                    "the header names no known column (expected e.g. name, first name, last name, phone, email, organization)")
            }
            if header.unterminatedQuote {
                return .failure(line: header.line, message: "the header has a quoted field that is not closed: "
                                + "the columns from there on are ignored")
            }
            if header.fieldCount > header.fields.count {
                return .failure(line: header.line, message: "the header has \(header.fieldCount) columns: "
                                + "the columns after the first \(header.fields.count) are ignored")
            }
        }
        guard let columns, let record = try records.next() else { return nil }
        var issues: [(line: Int, message: String)] = []
        if let unclosed = record.unclosedQuote {
            let why = unclosed == .endOfFile ? "before the end of the file"
                : "within \(records.maxRecordBytes / (1024 * 1024)) MB"
            let next = record.resumedAt.map { ": row skipped, reading goes on at line \($0)" } ?? ": row skipped"
            return .failure(line: record.line, message: "a quoted field is not closed \(why)\(next)")
        }
        if record.truncated { issues.append((record.line, "a field is longer than \(records.maxFieldBytes) bytes: cut")) }
        var lossy = false
        let values: [String] = record.fields.map { bytes in
            let (t, l) = TextDecoding.decode(bytes)
            lossy = lossy || l
            return Self.withoutFormulaGuard(t.trimmedSpaces)
        }
        if lossy { issues.append((record.line, "row is not valid UTF-8: unreadable bytes replaced with �")) }
        if record.fieldCount > values.count
            || values.count > columns.count && values[columns.count...].contains(where: { !$0.isEmpty }) {
            issues.append((record.line, "row has \(record.fieldCount) fields but the header has \(columns.count): extra fields ignored"))
        }
        func clamp(_ v: String, _ limit: Int, _ field: String) -> String {
            let (c, m) = FieldLimits.clamp(v, limit, field: field)
            if let m { issues.append((record.line, m)) }
            return c
        }
        var p = Person()
        var middle = ""
        var extraPhones = 0, extraEmails = 0
        var fields = CustomFieldGatherer()
        func field(_ name: Result<String, PersonalFields.NameRefusal>, _ title: String, _ value: String) {
            if let problem = fields.add(name, title: title, value: value, line: record.line) { issues.append((record.line, "row's " + problem)) }
        }
        for (i, column) in columns.enumerated() where i < values.count {
            let v = values[i]
            if v.isEmpty { continue }
            switch column.role {
            case .first: p.firstName = clamp(v, FieldLimits.text, "first name")
            case .middle: middle = clamp(v, FieldLimits.text, "middle name")
            case .last: p.lastName = clamp(v, FieldLimits.text, "last name")
            case .full: p.formattedName = clamp(v, FieldLimits.text, "name")
            case .org: p.organization = clamp(v, FieldLimits.text, "organization")
            case .uid: p.uid = clamp(v, FieldLimits.text, "uid")
            case .note: p.note = clamp(v, FieldLimits.note, "notes")
            case .nickname, .ignored: break
            case .field(let name, let title): field(.success(name), title, v)
            case .labeledField(let title, let labelColumn):
                let label = labelColumn.flatMap { $0 < values.count ? values[$0].trimmedSpaces : nil } ?? ""
                field(PersonalFields.fieldName(from: label.isEmpty ? title : label), label.isEmpty ? title : label, v)
            case .groups(let separator):
                p.groups = PersonGroups.unique(p.groups + Self.groups(v, separator: separator))
            case .phone(let label, let labelColumn):
                let l = labelColumn.flatMap { $0 < values.count ? Self.cleanLabel(values[$0]) : nil } ?? label
                for part in Self.multiValues(v) {
                    if p.phones.count >= FieldLimits.phonesPerPerson { extraPhones += 1; continue }
                    let raw = clamp(part, FieldLimits.phone, "phone")
                    p.phones.append(LabeledPhone(label: l, number: parser.parse(raw)))
                }
            case .email(let label, let labelColumn):
                let l = labelColumn.flatMap { $0 < values.count ? Self.cleanLabel(values[$0]) : nil } ?? label
                for part in Self.multiValues(v) {
                    if p.emails.count >= FieldLimits.emailsPerPerson { extraEmails += 1; continue }
                    p.emails.append(LabeledEmail(label: l, address: clamp(part, FieldLimits.email, "email")))
                }
            }
        }
        p.customFields = fields.fields
        if let excess = fields.excess { issues.append((excess.line, "row has " + excess.message)) }
        if extraPhones > 0 {
            issues.append((record.line, "row has \(FieldLimits.phonesPerPerson + extraPhones) phone numbers: "
                           + "kept the first \(FieldLimits.phonesPerPerson)"))
        }
        if extraEmails > 0 {
            issues.append((record.line, "row has \(FieldLimits.emailsPerPerson + extraEmails) emails: "
                           + "kept the first \(FieldLimits.emailsPerPerson)"))
        }
        if !middle.isEmpty { p.firstName = p.firstName.isEmpty ? middle : p.firstName + " " + middle }
        if p.firstName.isEmpty && p.lastName.isEmpty && !p.formattedName.isEmpty {
            let words = p.formattedName.split(separator: " ")
            if words.count >= 2 {
                p.firstName = words.dropLast().joined(separator: " ")
                p.lastName = String(words[words.count - 1])
            } else {
                p.firstName = p.formattedName
            }
        }
        if p.formattedName.isEmpty && (!p.firstName.isEmpty || !p.lastName.isEmpty) {
            p.formattedName = [p.firstName, p.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        }
        if !p.hasName && p.organization == nil && p.phones.isEmpty && p.emails.isEmpty {
            return .failure(line: record.line, message: "row has no name, organisation, phone number or email: skipped")
        }
        if !headerIssues.isEmpty {
            issues = headerIssues + issues
            headerIssues = []
        }
        return .person(p, line: record.line, issues: issues)
    }

    /// A field as stored before CSV export guarded it against spreadsheets (`CSVWriter.formulaGuarded`): one leading
    /// `'` taken off a value whose first character after its quotes would start a formula. A spreadsheet user who
    /// typed `'+385…` to keep a number as text gets the number too.
    static func withoutFormulaGuard(_ v: String) -> String {
        guard v.unicodeScalars.first == "'", let first = v.unicodeScalars.first(where: { $0 != "'" }),
              CSVWriter.formulaStarts.contains(first) else { return v }
        return String(v.unicodeScalars.dropFirst())
    }

    /// Google's " ::: "-separated values, trimmed, without empty ones.
    static func multiValues(_ v: String) -> [String] {
        let parts = v.utf8.contains(0x3A) ? v.components(separatedBy: " ::: ") : [v]
        return parts.map(FastText.trimSpaces).filter { !$0.isEmpty }
    }

    /// The groups of a Labels or Categories field: split on `separator`, Google's "* myContacts" (every contact
    /// of the account is in it) left out and the "* " of its other system labels ("* starred") taken off.
    static func groups(_ v: String, separator: String) -> [String] {
        v.components(separatedBy: separator).compactMap { part in
            var name = FastText.trimSpaces(part)
            if name.hasPrefix("* ") { name = FastText.trimSpaces(String(name.dropFirst(2))) }
            return name.isEmpty || name.lowercased() == "mycontacts" ? nil : name
        }
    }

    /// "* Mobile" → "mobile"; empty → nil.
    static func cleanLabel(_ s: String) -> String? {
        var t = s.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("* ") { t = String(t.dropFirst(2)) }
        if let sep = t.range(of: " ::: ") { t = String(t[..<sep.lowerBound]) }
        t = t.lowercased()
        return t.isEmpty ? nil : t
    }
}
