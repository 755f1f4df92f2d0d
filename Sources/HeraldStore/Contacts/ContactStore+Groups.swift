import Foundation
import GRDB
import HeraldCore

extension ContactStore {
    /// Puts the people `ids` in the groups `added` and takes them out of `removed` (names folded as names are), in one
    /// transaction; a person in a vdir or CardDAV book gets the CATEGORIES line of its card written as any edit does
    /// (a card that cannot be written undoes the whole tagging). Answers the people changed; an unknown id is refused.
    @discardableResult
    public func tag(ids: [Int64], adding added: [String], removing removed: [String]) throws -> [Person] {
        let add = PersonGroups.unique(added), remove = PersonGroups.unique(removed)
        guard !add.isEmpty || !remove.isEmpty else { return [] }
        let now = clock.now()
        return try database.write { db in
            var changed: [Person] = []
            for var person in try Self.existing(ids, db: db) {
                guard let id = person.id else { continue }
                let own = try PersonRows.ownGroups(id: id, db: db)
                let groups = PersonGroups.edited(own, adding: add, removing: remove)
                let gone = Set(remove.map(PersonGroups.fold))
                // Groups a group card (KIND:group) gives: untagging takes the person out of those too.
                let fromCards = person.groups.filter { !own.contains($0) }
                let untagged = fromCards.filter { gone.contains(PersonGroups.fold($0)) }
                if groups == own && untagged.isEmpty { continue }
                for name in untagged {
                    try db.execute(sql: "DELETE FROM person_group WHERE person_id = ? AND folded = ?",
                                   arguments: [id, PersonGroups.fold(name)])
                }
                person.groups = groups
                person.revision = max(now, person.revision ?? .distantPast)
                try PersonRows.update(person, id: id, db: db, now: now)
                try BookCards.written(person, id: id, db: db, now: now)
                person.groups = PersonGroups.unique(groups + fromCards.filter { !gone.contains(PersonGroups.fold($0)) })
                person.updatedAt = now
                changed.append(person)
            }
            if !changed.isEmpty { try PersonRows.bumpGeneration(db) }
            return changed
        }
    }

    /// The people in the group `name` (folded as names are), in name order.
    public func people(inGroup name: String, sortedBy sort: ContactSort = .firstName) throws -> [Person] {
        try database.read { db in
            let column = sort == .firstName ? "sort_first" : "sort_last"
            let ids = try Int64.fetchAll(db, sql: """
                SELECT p.id FROM person_group g JOIN person p ON p.id = g.person_id WHERE g.folded = ? ORDER BY p.\(column), p.id
                """, arguments: [PersonGroups.fold(name)])
            return try PersonRows.fetch(ids: ids, db: db)
        }
    }
}
