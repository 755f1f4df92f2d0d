import Foundation
import HeraldCore
import HeraldStore

/// People merged into one, or about to be: the person kept (with everything of the others) and who goes.
public struct ContactMergePlan: Sendable {
    public let ids: [Int64]
    public let merged: Person
    public let removed: [Person]
    /// Numbers and emails beyond a contact's limits, left out.
    public let leftOut: Int
}

/// Changing the address book from a screen: adding and editing a contact from its card, deleting (and putting back),
/// merging, and the groups of likely duplicates. Off the UI thread, like every method of the book.
extension ContactBook {
    /// The person `id` as the card the editor opens; nil when there is no such person.
    public func card(personId: Int64) async throws -> String? {
        try contacts.person(id: personId).map { ContactDraft($0).cardText }
    }

    /// Stores a new contact from `draft` (with `book`, as a new card of that address book); returns it with its id.
    public func add(_ draft: ContactDraft, book: String? = nil) async throws -> Person {
        try contacts.add(draft, parser: parser, book: book)
    }

    /// Stores `draft` over the person `id` (REV bumped; into the draft's book when it names one); nil when it changes nothing.
    public func save(_ draft: ContactDraft, personId: Int64) async throws -> Person? {
        try contacts.save(draft, personId: personId, parser: parser)
    }

    /// Deletes these people and returns them as they were, for `restore`.
    public func delete(ids: [Int64]) async throws -> [Person] { try contacts.delete(ids: ids) }

    /// Puts deleted people back under their own ids.
    public func restore(_ people: [Person]) async throws { try contacts.restore(people) }

    /// What merging these people (into the first) would give; nothing is stored.
    public func mergePlan(ids: [Int64]) async throws -> ContactMergePlan {
        let people = try contacts.existingPeople(ids: ids)
        let (merged, leftOut) = ContactStore.merged(people)
        return ContactMergePlan(ids: people.compactMap(\.id), merged: merged, removed: Array(people.dropFirst()), leftOut: leftOut.phones + leftOut.emails)
    }

    /// Merges these people into the first (their invitations follow); returns what was stored.
    public func merge(ids: [Int64]) async throws -> ContactMergePlan {
        let merge = try contacts.merge(ids: ids)
        return ContactMergePlan(ids: ids, merged: merge.person, removed: merge.removed, leftOut: merge.leftOut.phones + merge.leftOut.emails)
    }
}
