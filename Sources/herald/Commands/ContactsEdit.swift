import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore
import HeraldTUI

/// `herald contacts edit ID`: the fields given as options, or, with none, the contact as a readable card in
/// `$VISUAL`/`$EDITOR` (as khard opens YAML). A card with problems opens again with them listed on top, until it
/// is right, emptied (cancel) or saved unchanged (then nothing is stored and the problems are printed).
struct ContactsEdit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a contact, with options or in $EDITOR.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's id, as `contacts list` prints it.", completion: LiveCompletions.contactIDs)
    var id: Int64

    @OptionGroup var fields: ContactFieldOptions

    @Option(name: .customLong("add-phone"), help: ArgumentHelp("Add a number (labelled as with --phone).", valueName: "number"))
    var addPhones: [String] = []

    @Option(name: .customLong("remove-phone"), help: ArgumentHelp("Remove a number, written as it is stored or in any form that reads the same.", valueName: "number"))
    var removePhones: [String] = []

    @Option(name: .customLong("add-email"), help: ArgumentHelp("Add an email address.", valueName: "address"))
    var addEmails: [String] = []

    @Option(name: .customLong("remove-email"), help: ArgumentHelp("Remove an email address.", valueName: "address"))
    var removeEmails: [String] = []

    @Option(name: .customLong("remove-field"), help: ArgumentHelp("Remove a field (as `contacts show` names it, or as written for --field).",
                                                                  valueName: "name"))
    var removeFields: [String] = []

    @Option(help: ArgumentHelp("Read the card from a file (\"-\": stdin) instead of opening $EDITOR; `contacts edit ID --print-card` writes one.",
                               valueName: "file"))
    var card: String?

    @Flag(name: .customLong("print-card"), help: "Print the contact's card, as the editor would show it, and change nothing.")
    var printCard = false

    @Option(help: "The region for numbers without a country code (ISO 3166 code, e.g. HR, US).")
    var region: String?

    @Flag(help: "Print the contact as JSON once changed.")
    var json = false

    var usesOptions: Bool {
        !fields.isEmpty || !addPhones.isEmpty || !removePhones.isEmpty || !addEmails.isEmpty || !removeEmails.isEmpty || !removeFields.isEmpty
    }

    func validate() throws {
        if [usesOptions, card != nil, printCard].filter({ $0 }).count > 1 {
            throw ValidationError("give field options, --card or --print-card, not more than one")
        }
    }

    func run() async throws {
        let parser = try global.phoneParser(region: region)
        let db = try global.openDatabase()
        _ = try global.addressBooks(db, parser: parser)      // the config's books, which a card's `Book:` line may name
        let store = ContactStore(database: db)
        guard let stored = try store.person(id: id) else {
            throw Output.failure("no contact with id \(id): find ids with `herald contacts list --search NAME`")
        }
        if printCard {
            print(ContactDraft(stored).cardText, terminator: "")
            return
        }
        let draft: ContactDraft?
        if usesOptions {
            draft = try optionsDraft(stored, parser: parser)
        } else if let card {
            draft = try fileDraft(card, stored: stored)
        } else {
            draft = try await editorDraft(stored)
        }
        guard let draft, let person = try store.save(draft, personId: id, parser: parser) else {
            Output.note("nothing changed")
            return
        }
        ContactFieldOptions.warnUninvitable(person.phones.filter { !stored.phones.contains($0) })
        if json {
            try Output.printJSON(ContactJSON(person, database: db))
        } else {
            print("changed \(Output.safe(person.displayName)) (id \(id))")
        }
    }

    /// The stored contact with the options applied; nil when they change nothing.
    private func optionsDraft(_ stored: Person, parser: PhoneNumberParser) throws -> ContactDraft? {
        var draft: ContactDraft
        do throws(ContactDraft.Problem) {
            draft = try fields.applied(to: ContactDraft(stored))
            draft.phones += try ContactFieldOptions.phones(addPhones, option: "--add-phone")
            draft.emails += try ContactFieldOptions.emails(addEmails, option: "--add-email")
            try draft.checkTotals(line: 0)
        } catch {
            throw Output.failure("\(error.description); nothing was changed")
        }
        for value in removePhones {
            let wanted = parser.parse(value).e164
            guard let at = draft.phones.firstIndex(where: { entry in
                entry.value == value.trimmedSpaces || (wanted != nil && parser.parse(entry.value).e164 == wanted)
            }) else {
                throw Output.failure("--remove-phone: \(Output.safe(value)) is not one of this contact's numbers; nothing was changed")
            }
            draft.phones.remove(at: at)
        }
        for value in removeEmails {
            guard let at = draft.emails.firstIndex(where: { $0.value.lowercased() == value.trimmedSpaces.lowercased() }) else {
                throw Output.failure("--remove-email: \(Output.safe(value)) is not one of this contact's addresses; nothing was changed")
            }
            draft.emails.remove(at: at)
        }
        for written in removeFields {
            let name: String
            do throws(ContactDraft.Problem) { name = try ContactFieldOptions.fieldName(written, option: "--remove-field") } catch {
                throw Output.failure("\(error.description); nothing was changed")
            }
            guard draft.customFields.removeValue(forKey: name) != nil else {
                let has = stored.customFields.keys.sorted()
                throw Output.failure("--remove-field: \(name) is not one of this contact's fields"
                                     + (has.isEmpty ? " (it has none)" : " (\(has.joined(separator: ", ")))") + "; nothing was changed")
            }
        }
        return draft == ContactDraft(stored) ? nil : draft
    }

    /// The contact as a card read from a file or stdin; nil when it changes nothing.
    private func fileDraft(_ path: String, stored: Person) throws -> ContactDraft? {
        let data: Data
        do { data = path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Output.failure("cannot read the card \(path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Output.failure("the card \(path) is not UTF-8 text; nothing was changed") }
        do throws(ContactDraft.ProblemList) {
            let draft = try ContactDraft.parse(cardText: ContactDraft.withoutProblems(text))
            return draft == ContactDraft(stored) ? nil : draft
        } catch {
            throw Output.failure("the card \(path) was not stored:\n\(error.description)")
        }
    }

    /// The contact edited as a card in the user's editor; nil when cancelled or left as it was.
    @MainActor private func editorDraft(_ stored: Person) throws -> ContactDraft? {
        let outcome: ContactCardEditor.Outcome
        do { outcome = try ContactCardEditor.edit(ContactDraft(stored).cardText, suspend: { $0() }) } catch {
            throw Output.failure(error.description)
        }
        switch outcome {
        case .cancelled:
            return nil
        case .edited(let draft):
            return draft == ContactDraft(stored) ? nil : draft
        case .refused(let card, let problems):
            let advice: String
            switch ContactCardEditor.keep(card, name: "contact-\(id)") {
            case .success(let url):
                advice = "your card is kept in \(url.path): mend it and run `herald contacts edit \(id) --card \(url.path)`"
            case .failure(let error):
                advice = "your card could not be kept (\(error.localizedDescription)); run `herald contacts edit \(id)` again to mend it"
            }
            throw Output.failure("the card was not stored:\n\(problems.description)\n\(advice)")
        }
    }
}
