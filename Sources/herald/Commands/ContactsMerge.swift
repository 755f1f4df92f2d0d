import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// `herald contacts merge ID ID…`: the others merged into the first, which keeps its names and gains every number
/// and email of the others; invitations are the ledger's, by number, so nobody invited becomes "not invited".
struct ContactsMerge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge contacts into the first one named.",
        discussion: "`herald contacts duplicates` lists the people who look like one person, with the line to merge them.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The contacts' ids: the first keeps its names; the others are merged into it and removed.",
              completion: LiveCompletions.contactIDs)
    var ids: [Int64]

    @Flag(name: .customLong("dry-run"), help: "Show the merged contact without storing anything.")
    var dryRun = false

    @Flag(help: "Print the merged contact as JSON.")
    var json = false

    func validate() throws {
        if Set(ids).count < 2 { throw ValidationError("name at least two different contacts: the one to keep first") }
    }

    func run() async throws {
        let db = try global.openDatabase()
        let store = ContactStore(database: db)
        let merged: Person
        let removed: [Person]
        let leftOut: (phones: Int, emails: Int)
        do {
            if dryRun {
                let people = try store.existingPeople(ids: ids)
                (merged, leftOut) = ContactStore.merged(people)
                removed = Array(people.dropFirst())
            } else {
                let merge = try store.merge(ids: ids)
                (merged, removed, leftOut) = (merge.person, merge.removed, merge.leftOut)
            }
        } catch let error as ContactStoreError {
            throw Output.failure("\(error.description); nothing was merged")
        }
        if json {
            try Output.printJSON(ContactJSON(merged, database: db))
        } else {
            let others = removed.map { "\(Output.safe($0.displayName)) (id \($0.id ?? 0))" }.joined(separator: ", ")
            print("\(dryRun ? "would merge" : "merged") \(others) into \(Output.safe(merged.displayName)) (id \(merged.id ?? 0)):")
            for phone in merged.phones { print("  phone: \(Output.safe(phone.label.map { "\($0): " } ?? ""))\(Output.safe(phone.number.raw))") }
            for email in merged.emails { print("  email: \(Output.safe(email.label.map { "\($0): " } ?? ""))\(Output.safe(email.address))") }
        }
        if leftOut.phones + leftOut.emails > 0 {
            Output.warn("\(leftOut.phones) numbers and \(leftOut.emails) emails were over a contact's limit of \(ContactDraft.entriesLimit) and left out")
        }
    }
}
