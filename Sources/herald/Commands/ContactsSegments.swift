import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts segments save|list|delete`: queries kept under a name.
struct ContactsSegments: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segments", abstract: "Save a contacts query under a name, list and delete them.",
        discussion: """
            A segment keeps the query, not the people: segment:NAME in a query, `herald contacts list --segment NAME` \
            and `herald send --segment NAME` find the people who match it when used. A segment may use another \
            (segment:OTHER), never itself.
            """,
        subcommands: [ContactsSegmentsSave.self, ContactsSegmentsList.self, ContactsSegmentsDelete.self])
}

/// `herald contacts segments save NAME --query '…'`.
struct ContactsSegmentsSave: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "save", abstract: "Save a query as a segment (replacing one of that name).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The segment's name (case and accents ignored).")
    var name: String

    // `.unconditional`: `--query -status:invited` is a query starting with a "not", not an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The query, as in `contacts list --search`: e.g. 'group:\"running club\" -status:invited'.",
                                                        valueName: "query"))
    var query: String

    func run() async throws {
        let db = try global.openDatabase()
        let contacts = ContactStore(database: db)
        let saved: SavedSegment
        do {
            saved = try SavedSegments(contacts: contacts).save(name, query: query)
        } catch let error as ContactQueryError {
            throw Output.failure("--query: \(error.message); nothing was saved")
        } catch let error as SegmentError {
            throw Output.failure("\(error); nothing was saved")
        }
        let found = try ContactSearch(contacts: contacts, ledger: LedgerStore(database: db)).hits(try ContactQuery(saved.query), limit: 0)
        print("saved segment \(Output.safe(saved.name)): \(Output.safe(saved.query)) (\(counted(found?.total ?? 0, "contact")) now)")
    }
}

/// `herald contacts segments list [--json]`.
struct ContactsSegmentsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved segments with how many contacts each finds now.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct SegmentJSON: Encodable {
        var name: String
        var query: String
        var savedAt: Date
        var contacts: Int?
        var error: String?
    }

    func run() async throws {
        let db = try global.openDatabase()
        let contacts = ContactStore(database: db)
        let search = ContactSearch(contacts: contacts, ledger: LedgerStore(database: db))
        let rows = try SavedSegments(contacts: contacts).list().map { segment -> SegmentJSON in
            do {
                let found = try search.hits(try ContactQuery(segment.query), limit: 0)
                return SegmentJSON(name: segment.name, query: segment.query, savedAt: segment.savedAt, contacts: found?.total ?? 0)
            } catch let error as ContactQueryError {
                return SegmentJSON(name: segment.name, query: segment.query, savedAt: segment.savedAt, error: error.message)
            }
        }
        if json {
            try Output.printJSON(rows)
            return
        }
        guard !rows.isEmpty else {
            print("No segments saved: save one with `herald contacts segments save NAME --query '…'` or :save NAME in Contacts.")
            return
        }
        var table = OutputTable(headers: ["NAME", "CONTACTS", "QUERY"], maxWidths: [32, 10, 80])
        for row in rows {
            table.add([row.name, row.contacts.map(String.init) ?? "error: \(row.error ?? "")", row.query])
        }
        print(table.render(), terminator: "")
    }
}

/// `herald contacts segments delete NAME`.
struct ContactsSegmentsDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a saved segment (its people stay).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The segment's name.")
    var name: String

    func run() async throws {
        let db = try global.openDatabase()
        do {
            try SavedSegments(contacts: ContactStore(database: db)).delete(name)
        } catch let error as SegmentError {
            throw Output.failure("\(error)")
        }
        print("deleted segment \(Output.safe(name))")
    }
}
