import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts tag ID… --add GROUP --remove GROUP`.
struct ContactsTag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Put contacts in groups, or take them out.",
        discussion: """
            A group is a vCard CATEGORIES name: the groups of Nextcloud, iCloud, Google and khard. Names are compared \
            without case or accents (--add "running club" and --add "Running Club" are one group). A contact of a vdir \
            or CardDAV book has its card's CATEGORIES line written (a CardDAV card at the next sync); every other line \
            of the card stays as it was. Find them again with `herald contacts list --group NAME` or group:NAME.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contacts' ids.", completion: LiveCompletions.contactIDs)
    var ids: [Int64]

    @Option(help: ArgumentHelp("A group to put them in (repeat for more).", valueName: "group"))
    var add: [String] = []

    @Option(help: ArgumentHelp("A group to take them out of (repeat for more).", valueName: "group"))
    var remove: [String] = []

    @Flag(help: "Print the contacts changed as JSON.")
    var json = false

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("name the contacts: herald contacts tag ID… --add GROUP") }
        guard !(add + remove).isEmpty else { throw ValidationError("say what to do: --add GROUP and/or --remove GROUP") }
        for name in add + remove where PersonGroups.clean(name).isEmpty {
            throw ValidationError("a group name cannot be empty")
        }
        let both = Set(add.map(PersonGroups.fold)).intersection(remove.map(PersonGroups.fold))
        if let clash = both.first { throw ValidationError("\"\(clash)\" is both added and removed: say one") }
    }

    func run() async throws {
        let db = try global.openDatabase()
        _ = try global.addressBooks(db, parser: try global.phoneParser(region: nil))
        let changed: [Person]
        do {
            changed = try ContactStore(database: db).tag(ids: ids, adding: add, removing: remove)
        } catch let error as ContactStoreError {
            throw Output.failure("\(error); no one was tagged")
        } catch let error as BookError {
            throw Output.failure("\(error); no one was tagged")
        }
        if json {
            try Output.printJSON(changed.map { ContactJSON($0, statuses: [:]) })
            return
        }
        let unchanged = Set(ids).count - changed.count
        print("tagged \(counted(changed.count, "contact"))" + (unchanged > 0 ? " (\(unchanged) already so)" : ""))
        for p in changed {
            let groups = p.groups.isEmpty ? "no groups" : p.groups.map(Output.safe).joined(separator: ", ")
            print("  \(p.id ?? 0)  \(Output.safe(p.displayName)): \(groups)")
        }
    }
}
