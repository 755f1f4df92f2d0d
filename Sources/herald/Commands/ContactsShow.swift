import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts show ID`.
struct ContactsShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one contact with its numbers and invitations.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contact's id, as `contacts list` prints it.", completion: LiveCompletions.contactIDs)
    var id: Int64

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let db = try global.openDatabase()
        guard let p = try ContactStore(database: db).person(id: id) else {
            throw Output.failure("no contact with id \(id): find ids with `herald contacts list --search NAME`")
        }
        let ledger = LedgerStore(database: db)
        let statuses = try ledger.latestStatuses(msisdns: p.distinctNumbers)
        if json {
            try Output.printJSON(ContactJSON(p, statuses: statuses))
            return
        }
        print(Output.safe(p.displayName))
        if !p.firstName.isEmpty || !p.lastName.isEmpty {
            print("  first name: \(Output.safe(p.firstName))\n  last name:  \(Output.safe(p.lastName))")
        }
        if let org = p.organization { print("  organization: \(Output.safe(org))") }
        if !p.groups.isEmpty { print("  groups: \(p.groups.map(Output.safe).joined(separator: ", "))") }
        if !p.customFields.isEmpty {
            print("  fields (a message uses each as {NAME}):")
            for name in p.customFields.keys.sorted() {
                let value = (p.customFields[name] ?? "").replacingOccurrences(of: "\n", with: " ⏎ ")
                print("    \(Output.safe(name)): \(Output.safe(value))")
            }
        }
        var table = OutputTable(headers: ["  LABEL", "NUMBER", "E.164", "STATUS"], maxWidths: [16, 28, 18, 40])
        for ph in p.phones {
            let status = ph.number.e164.flatMap { statuses[$0]?.label } ?? (ph.number.invalidReason.map { "invalid: \($0)" } ?? "not invited")
            table.add(["  " + (ph.label ?? "-"), ph.number.raw, ph.number.e164 ?? "-", status])
        }
        if !p.phones.isEmpty { print(table.render(), terminator: "") }
        for e in p.emails { print("  email: \(Output.safe(e.address))\(e.label.map { " (\(Output.safe($0)))" } ?? "")") }
        if let note = p.note {
            for (i, line) in note.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                print((i == 0 ? "  note: " : "        ") + Output.safe(String(line)))
            }
        }
        let bulks = try ledger.bulkIds(for: p)
        if !bulks.isEmpty { print("  bulks: \(bulks.map(Output.safe).joined(separator: ", "))") }
    }
}
