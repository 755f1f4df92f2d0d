import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts add-email`: reads a mail on stdin (as mutt's and neomutt's pipe-message gives it) and adds the
/// addresses of its From field (or the fields `--headers` names) to the book: an address someone has already is
/// left alone, one whose name matches a person is added to them, anyone else becomes a new contact.
struct ContactsAddEmail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-email", abstract: "Add the sender of a mail read on stdin to the address book.",
        discussion: """
            In mutt or neomutt: macro index,pager A "<pipe-message>herald contacts add-email<return>" "add the sender to Herald". \
            Names in encoded words (=?UTF-8?B?…?=) are decoded; "Last, First" is read as such.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The header fields whose addresses are added, comma-separated.", valueName: "from,to,cc"))
    var headers = "from"

    @Flag(help: "Print what was done as JSON.")
    var json = false

    struct Outcome: Encodable {
        var address: String
        var name: String
        /// "added" (a new contact), "joined" (the address added to a person of that name), "known" (already there).
        var action: String
        var id: Int64
    }

    func validate() throws {
        let known: Set = ["from", "to", "cc", "bcc", "reply-to", "sender"]
        for field in fieldNames where !known.contains(field) {
            throw ValidationError("--headers takes from, to, cc, bcc, reply-to and sender, not \(field)")
        }
    }

    var fieldNames: [String] { headers.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }

    func run() async throws {
        let mail = MailHeaders(data: Self.readHeader())
        let found = mail.addresses(fieldNames)
        guard !found.isEmpty else {
            throw Output.failure("no address in the \(fieldNames.joined(separator: ", ")) field of the mail on stdin: pipe a whole mail, headers first")
        }
        let store = ContactStore(database: try global.openDatabase())
        let parser = try PhoneNumberParser(defaultRegion: nil)     // no number is read anew: known ones keep their reading
        var outcomes: [Outcome] = []
        for mailbox in found {
            let name: String, address: String
            do throws(ContactDraft.Problem) {
                address = try ContactDraft.email(mailbox.address).value
                name = try ContactDraft.text(TerminalSafeText.sanitize(mailbox.name), "name")
            } catch {
                Output.warn("\(Output.safe(mailbox.address)): \(error.reason); skipped")
                continue
            }
            if let id = try store.personIDs(withEmail: address).first {
                outcomes.append(Outcome(address: address, name: try store.person(id: id)?.displayName ?? name, action: "known", id: id))
            } else if !name.isEmpty, let id = try store.personIDs(namedAlike: name).first, let person = try store.person(id: id),
                      person.emails.count < ContactDraft.entriesLimit {
                var draft = ContactDraft(person)
                draft.emails.append(ContactDraft.Labeled(label: nil, value: address))
                let saved = try store.save(draft, personId: id, parser: parser) ?? person
                outcomes.append(Outcome(address: address, name: saved.displayName, action: "joined", id: id))
            } else {
                var draft = ContactDraft()
                (draft.firstName, draft.lastName) = ContactDraft.nameParts(name)
                draft.emails = [ContactDraft.Labeled(label: nil, value: address)]
                let stored = try store.add(draft, parser: parser)
                outcomes.append(Outcome(address: address, name: stored.displayName, action: "added", id: stored.id ?? 0))
            }
        }
        if json {
            try Output.printJSON(outcomes)
            return
        }
        for o in outcomes {
            let who = "\(Output.safe(o.name)) (id \(o.id))"
            switch o.action {
            case "added": print("added \(who) with \(Output.safe(o.address))")
            case "joined": print("added \(Output.safe(o.address)) to \(who)")
            default: print("\(Output.safe(o.address)) is already \(who)'s")
            }
        }
    }

    /// The mail's header from stdin: read to its end (a mail program writes the whole message), keeping at most
    /// `MailHeaders.limit` bytes.
    static func readHeader() -> Data {
        var kept = Data()
        let input = FileHandle.standardInput
        while true {
            let chunk = input.readData(ofLength: 64 * 1024)
            if chunk.isEmpty { break }
            if kept.count < MailHeaders.limit { kept.append(chunk.prefix(MailHeaders.limit - kept.count)) }
        }
        return kept
    }
}
