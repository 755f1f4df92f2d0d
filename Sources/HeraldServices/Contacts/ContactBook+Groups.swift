import Foundation
import HeraldCore
import HeraldStore

/// Groups and saved segments from a screen: tagging people, the groups there are, and the queries kept under a name.
extension ContactBook {
    /// Puts the people `ids` in `added` and takes them out of `removed`; a booked person's card says so (see
    /// `ContactStore.tag`). Answers the people changed.
    public func tag(ids: [Int64], adding added: [String], removing removed: [String] = []) async throws -> [Person] {
        try contacts.tag(ids: ids, adding: added, removing: removed)
    }

    /// Every group with how many people are in it, by name.
    public func groups() async throws -> [(name: String, people: Int)] {
        try ContactSearch(contacts: contacts, ledger: ledger).groups()
    }

    /// The saved segments, by name.
    public func segments() async throws -> [SavedSegment] { try SavedSegments(contacts: contacts).list() }

    /// Saves `query` as the segment `name` (see `SavedSegments.save`), with how many people it finds now.
    public func saveSegment(_ name: String, query: String) async throws -> (segment: SavedSegment, people: Int) {
        let saved = try SavedSegments(contacts: contacts).save(name, query: query)
        let found = try ContactSearch(contacts: contacts, ledger: ledger).hits(try ContactQuery(saved.query), limit: 0)
        return (saved, found?.total ?? 0)
    }

    /// Deletes the segment `name`.
    public func deleteSegment(_ name: String) async throws { try SavedSegments(contacts: contacts).delete(name) }
}
