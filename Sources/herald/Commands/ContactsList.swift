import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts list`.
struct ContactsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List contacts, optionally matching a search.")

    @OptionGroup var global: GlobalOptions

    // `.unconditional`: `--search -status:invited` is a query that starts with a "not", not an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Words to find in names, organisation, email or the digits of a number (case and accents are ignored); "
            + "or terms: name:, phone:, email:, org:, status:invited|pending|failed|not-invited, book:, group:, segment:, \"a phrase\", -term for not.",
        valueName: "query"))
    var search: String?

    @Option(help: ArgumentHelp("Only the contacts of this address book of [[books]] (as book:NAME in --search).", valueName: "name"), completion: LiveCompletions.books)
    var book: String?

    @Option(help: ArgumentHelp("Only the contacts in this group (vCard CATEGORIES; as group:NAME in --search).", valueName: "name"))
    var group: String?

    @Option(help: ArgumentHelp("Only the contacts the saved segment finds (as segment:NAME in --search).", valueName: "name"))
    var segment: String?

    @Option(help: "first or last (name to sort by).")
    var sort: String = "first"

    // `.unconditional`: `--limit -5` is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: "Show at most this many.")
    var limit: Int?

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        guard let order = ContactSort(rawValue: sort.lowercased()) else {
            throw Output.failure("unknown sort \"\(sort)\": use first or last")
        }
        if let limit, limit < 0 { throw Output.failure("--limit must be 0 or more") }
        let db = try global.openDatabase()
        let ledger = LedgerStore(database: db)
        let page: ContactPage
        var query: ContactQuery
        do { query = try ContactQuery(search ?? "") } catch { throw Output.failure("--search: \(error.message)") }
        if let book {
            _ = try global.addressBooks(db, parser: try global.phoneParser(region: nil))
            query.terms.append(ContactQuery.Term(field: .book, value: book))
        }
        if let group { query.terms.append(ContactQuery.Term(field: .group, value: group)) }
        if let segment { query.terms.append(ContactQuery.Term(field: .segment, value: segment)) }
        do {
            page = try ContactSearch(contacts: ContactStore(database: db), ledger: ledger).people(query, sortedBy: order, limit: limit)
        } catch let error as ContactQueryError {
            let option: String
            switch error {
            case .unknownBook where book != nil: option = "--book"
            case .unknownSegment where segment != nil, .segmentCycle where segment != nil: option = "--segment"
            default: option = "--search"
            }
            throw Output.failure("\(option): \(error.message)")
        }
        let statuses = try ledger.latestStatuses(msisdns: page.people.flatMap(\.distinctNumbers))
        if json {
            try Output.printJSON(ContactListJSON(count: page.total, contacts: page.people.map { ContactJSON($0, statuses: statuses) }))
            return
        }
        if page.total == 0, let group, search == nil {
            print("No contacts in group \"\(Output.safe(group))\": tag some with `herald contacts tag ID… --add \"\(Output.safe(group))\"`.")
            return
        }
        if page.total == 0 {
            let hint = search == nil ? "import some with `herald contacts import FILE`" : "try fewer letters"
            print("No contacts\(search.map { " match \"\(Output.safe($0))\"" } ?? ""): \(hint).")
            return
        }
        var table = OutputTable(headers: ["ID", "NAME", "ORGANIZATION", "PHONE", "STATUS", "EMAIL"],
                                maxWidths: [8, 32, 24, 20, 12, 32])
        for p in page.people {
            let phone = p.phones.first
            let more = p.phones.count > 1 ? " +\(p.phones.count - 1)" : ""
            let status = phone?.number.e164.flatMap { statuses[$0]?.label } ?? (phone.map { $0.number.isValid ? "" : "invalid" } ?? "")
            table.add([String(p.id ?? 0), p.displayName, p.organization ?? "",
                       (phone.map { $0.number.e164 ?? $0.number.raw } ?? "") + more, status, p.emails.first?.address ?? ""])
        }
        print(table.render(), terminator: "")
        if page.people.count < page.total { print("\(page.people.count) of \(page.total) shown") }
    }
}
