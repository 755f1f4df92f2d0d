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

    /// Whether any field was given.
    var isEmpty: Bool {
        firstName == nil && lastName == nil && formattedName == nil && organization == nil && note == nil && phones.isEmpty && emails.isEmpty
    }

    /// `draft` with the fields given here set; throws naming the option of a bad value.
    func applied(to draft: ContactDraft) throws(ContactDraft.Problem) -> ContactDraft {
        var d = draft
        if let firstName { d.firstName = try ContactDraft.text(firstName.trimmedSpaces, "--first") }
        if let lastName { d.lastName = try ContactDraft.text(lastName.trimmedSpaces, "--last") }
        if let formattedName { d.name = try ContactDraft.text(formattedName.trimmedSpaces, "--name") }
        if let organization { d.organization = try ContactDraft.text(organization.trimmedSpaces, "--org") }
        if let note { d.note = try ContactDraft.text(note.trimmedSpaces, "--note", limit: ContactDraft.noteLimit) }
        if !phones.isEmpty {
            d.phones = []
            for value in phones {
                do throws(ContactDraft.Problem) { d.phones.append(try ContactDraft.phone(value)) } catch { throw error.named("--phone") }
            }
        }
        if !emails.isEmpty {
            d.emails = []
            for value in emails {
                do throws(ContactDraft.Problem) { d.emails.append(try ContactDraft.email(value)) } catch { throw error.named("--email") }
            }
        }
        try d.checkTotals(line: 0)
        return d
    }
}

extension ContactDraft.Problem {
    /// The problem, told about the command-line option the value came from.
    func named(_ option: String) -> ContactDraft.Problem {
        ContactDraft.Problem(line: 0, field: option, reason: reason)
    }
}
