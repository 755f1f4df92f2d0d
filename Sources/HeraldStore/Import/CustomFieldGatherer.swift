import HeraldCore

/// Gathers the custom fields of one card or row as an import reads them, within a person's bounds
/// (`PersonalFields`): a name that cannot be one, a value too long, a name given twice, fields past the most a
/// person keeps are each left out with a problem that names the field.
struct CustomFieldGatherer {
    private(set) var fields: [String: String] = [:]
    /// Fields left out because the person had the most it keeps, and the line of the first of them.
    private var extra = (count: 0, line: 0)

    /// Keeps `value` as the field `name` (written `title` in the source); the problem to report when it is not kept.
    /// An empty value is no field and no problem.
    mutating func add(_ name: Result<String, PersonalFields.NameRefusal>, title: String, value: String, line: Int) -> String? {
        guard !value.isEmpty else { return nil }
        let field: String
        switch name {
        case .success(let n): field = n
        case .failure(let refusal): return "field \(refusal) (not kept)"
        }
        guard let kept = PersonalFields.keptValue(value) else {
            return "field {\(field)} (\(Self.shown(title))) is \(value.count) characters long: not kept "
                + "(at most \(PersonalFields.maxValueLength))"
        }
        if kept.isEmpty { return nil }
        if fields[field] != nil { return "field {\(field)} (\(Self.shown(title))) is given again: kept the first" }
        guard fields.count < PersonalFields.maxFieldsPerPerson else {
            if extra.count == 0 { extra.line = line }
            extra.count += 1
            return nil
        }
        fields[field] = kept
        return nil
    }

    /// The problem of fields left out past a person's limit, and the line of the first of them.
    var excess: (line: Int, message: String)? {
        guard extra.count > 0 else { return nil }
        return (extra.line, "\(PersonalFields.maxFieldsPerPerson + extra.count) custom fields: kept the first "
                + "\(PersonalFields.maxFieldsPerPerson)")
    }

    private static func shown(_ title: String) -> String {
        "\"" + VCardReader.preview(title) + "\""
    }
}
