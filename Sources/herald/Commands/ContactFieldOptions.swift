import ArgumentParser
import HeraldCore

/// The fields `contacts add` and `contacts edit` set from the command line; every value is checked as the editor's
/// card is (`ContactDraft`), and a problem names its option.
struct ContactFieldOptions: ParsableArguments {
    @Option(name: .customLong("first"), help: "First (given) name.")
    var firstName: String?

    @Option(name: .customLong("last"), help: "Last (family) name.")
    var lastName: String?

    @Option(name: .customLong("name"), help: "The name as shown, when it is more than first and last (\"Dr. Ana Kovač\").")
    var formattedName: String?

    @Option(name: .customLong("org"), help: "Organization.")
    var organization: String?

    @Option(help: "A note (\"\" removes it).")
    var note: String?

    @Option(name: .customLong("phone"), help: ArgumentHelp(
        "A number, optionally labelled (\"mobile: +385 91 234 5678\"); repeat for more. On edit, replaces every number.",
        valueName: "number"))
    var phones: [String] = []

    @Option(name: .customLong("email"), help: ArgumentHelp(
        "An email address, optionally labelled (\"work: ana@acme.hr\"); repeat for more. On edit, replaces every address.",
        valueName: "address"))
    var emails: [String] = []

    @Option(name: .customLong("field"), help: ArgumentHelp(
        "A field of the person a message can use, NAME=VALUE (\"Shirt size=L\" is {SHIRT_SIZE}); repeat for more. Sets that "
            + "field alone; NAME= removes it.",
        valueName: "name=value"))
    var customFields: [String] = []

    /// Whether any field was given.
    var isEmpty: Bool {
        firstName == nil && lastName == nil && formattedName == nil && organization == nil && note == nil && phones.isEmpty && emails.isEmpty
            && customFields.isEmpty
    }

    /// `draft` with the fields given here set; throws naming the option of a bad value.
    func applied(to draft: ContactDraft) throws(ContactDraft.Problem) -> ContactDraft {
        var d = draft
        if let firstName { d.firstName = try ContactDraft.text(firstName.trimmedSpaces, "--first") }
        if let lastName { d.lastName = try ContactDraft.text(lastName.trimmedSpaces, "--last") }
        if let formattedName { d.name = try ContactDraft.text(formattedName.trimmedSpaces, "--name") }
        if let organization { d.organization = try ContactDraft.text(organization.trimmedSpaces, "--org") }
        if let note { d.note = try ContactDraft.text(note.trimmedSpaces, "--note", limit: ContactDraft.noteLimit) }
        if !phones.isEmpty { d.phones = try Self.phones(phones, option: "--phone") }
        if !emails.isEmpty { d.emails = try Self.emails(emails, option: "--email") }
        for written in customFields {
            let (name, value) = try Self.field(written)
            d.customFields[name] = value
        }
        try d.checkTotals(line: 0)
        return d
    }
}

extension ContactFieldOptions {
    /// Numbers given with `option`, each checked; a problem names the option.
    static func phones(_ values: [String], option: String) throws(ContactDraft.Problem) -> [ContactDraft.Labeled] {
        var out: [ContactDraft.Labeled] = []
        for value in values {
            do throws(ContactDraft.Problem) { out.append(try ContactDraft.phone(value)) } catch { throw error.named(option) }
        }
        return out
    }

    /// Addresses given with `option`, each checked; a problem names the option.
    static func emails(_ values: [String], option: String) throws(ContactDraft.Problem) -> [ContactDraft.Labeled] {
        var out: [ContactDraft.Labeled] = []
        for value in values {
            do throws(ContactDraft.Problem) { out.append(try ContactDraft.email(value)) } catch { throw error.named(option) }
        }
        return out
    }

    /// A `--field NAME=VALUE`: the field's name (`PersonalFields.fieldName`) and its checked value, nil for `NAME=`.
    static func field(_ written: String) throws(ContactDraft.Problem) -> (String, String?) {
        guard let equals = written.firstIndex(of: "=") else {
            throw ContactDraft.Problem(line: 0, field: "--field", reason: "\"\(Output.safe(written))\" has no value: write NAME=VALUE (\"Team=Blue\")")
        }
        let name = try fieldName(String(written[..<equals]), option: "--field")
        let value = String(written[written.index(after: equals)...]).trimmedSpaces
        if value.isEmpty { return (name, nil) }
        do throws(ContactDraft.Problem) { return (name, try ContactDraft.fieldValue(value, name: name)) } catch { throw error.named("--field") }
    }

    /// A field's name as written on the command line, made a field name ("Shirt size" → SHIRT_SIZE).
    static func fieldName(_ written: String, option: String) throws(ContactDraft.Problem) -> String {
        switch PersonalFields.fieldName(from: written.trimmedSpaces) {
        case .success(let name): return name
        case .failure(let refusal): throw ContactDraft.Problem(line: 0, field: option, reason: refusal.description)
        }
    }

    /// Warns about each of `phones` that no invitation can go to (kept as written).
    static func warnUninvitable(_ phones: [LabeledPhone]) {
        for phone in phones {
            if let reason = phone.number.invalidReason { Output.warn("\(phone.number.raw): \(reason); kept, but no invitation can go to it") }
        }
    }
}

extension ContactDraft.Problem {
    /// The problem, told about the command-line option the value came from.
    func named(_ option: String) -> ContactDraft.Problem {
        ContactDraft.Problem(line: 0, field: option, reason: reason)
    }
}
