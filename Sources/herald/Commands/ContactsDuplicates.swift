import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts duplicates`: people who look like one person (the same number, the same email, or names alike
/// once case, accents and word order are folded), each group with why and the line that merges it.
struct ContactsDuplicates: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "duplicates", abstract: "List contacts who look like one person.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON: {\"groups\": [{\"ids\": […], \"reasons\": […]}]}.")
    var json = false

    struct GroupsJSON: Encodable {
        var groups: [DuplicateGroup]
    }

    func run() async throws {
        let store = ContactStore(database: try global.openDatabase())
        let groups = try store.duplicates()
        if json {
            try Output.printJSON(GroupsJSON(groups: groups))
            return
        }
        guard !groups.isEmpty else {
            print("no likely duplicates")
            return
        }
        let people = Dictionary(try store.people(ids: groups.flatMap(\.ids)).compactMap { p in p.id.map { ($0, p) } },
                                uniquingKeysWith: { first, _ in first })
        let count = groups.reduce(0) { $0 + $1.ids.count }
        print("\(groups.count) group\(groups.count == 1 ? "" : "s") of likely duplicates (\(count) people):")
        for group in groups {
            print("")
            print("  " + group.reasons.map(Output.safe).joined(separator: "; "))
            for id in group.ids {
                guard let p = people[id] else { continue }
                let details = (p.phones.map(\.number.raw) + p.emails.map(\.address)).prefix(3).map(Output.safe).joined(separator: "  ")
                print("    \(id)\t\(Output.safe(p.displayName))\t\(details)")
            }
            print("    merge: herald contacts merge \(group.ids.map(String.init).joined(separator: " "))")
        }
    }
}
