import Foundation
import GRDB
import HeraldCore

/// People merged into one: who stayed, who went, and what did not fit.
public struct ContactMerge: Sendable {
    /// The person kept, with every number and email of the others.
    public var person: Person
    /// The people merged into it, as they were (removed from the book).
    public var removed: [Person]
    /// Numbers and emails beyond a person's limits, left out.
    public var leftOut: (phones: Int, emails: Int)
}

extension ContactStore {
    /// Stores a new contact written as a draft (numbers read with `parser`), its REV stamped now; with `book`, as a
    /// new card of that book (a vdir book gets its file, named after the card's UID).
    public func add(_ draft: ContactDraft, parser: PhoneNumberParser, book: String? = nil) throws -> Person {
        let now = clock.now()
        var person = draft.applied(to: Person(), parser: parser)
        person.revision = now
        return try database.write { db in
            let id = try PersonRows.insert(person, db: db, now: now)
            person.id = id
            if let book { person = try BookCards.added(person, id: id, book: book, db: db, now: now) }
            try PersonRows.bumpGeneration(db)
            person.createdAt = now
            person.updatedAt = now
            return person
        }
    }

    /// Stores `draft` over the person `id` in one transaction, REV bumped; nil when it changes nothing. Numbers
    /// already stored keep their reading; new ones are read with `parser`. A `Book:` line then moves the person there
    /// (a second unit of work: card files are written by each); a move that fails says the edit itself was saved.
    public func save(_ draft: ContactDraft, personId id: Int64, parser: PhoneNumberParser) throws -> Person? {
        // A book that is not there refuses the whole edit, before it.
        if let target = draft.book {
            _ = try database.read { db in try BookCards.book(named: target, db: db) }
            let saved = try save(draft.withoutBook, personId: id, parser: parser)
            do {
                guard try move(ids: [id], toBook: target) > 0 else { return saved }
            } catch {
                throw ContactStoreError.savedNotMoved(id, book: target, because: "\(error)")
            }
            return try person(id: id)
        }
        let now = clock.now()
        return try database.write { db in
            guard let stored = try PersonRows.fetch(ids: [id], db: db).first else { throw ContactStoreError.notFound(id) }
            guard draft != ContactDraft(stored) else { return nil }
            var person = draft.applied(to: stored, parser: parser)
            person.revision = max(now, stored.revision ?? .distantPast)
            try PersonRows.update(person, id: id, db: db, now: now)
            let removed = Set(stored.customFields.keys).subtracting(person.customFields.keys)
            try BookCards.written(person, id: id, db: db, now: now, removedFields: removed)
            try PersonRows.bumpGeneration(db)
            person.updatedAt = now
            return person
        }
    }

    /// The people `ids`, each once, in the order given; throws `ContactStoreError.notFound` naming the first id that
    /// does not exist.
    public func existingPeople(ids: [Int64]) throws -> [Person] {
        try database.read { db in try Self.existing(ids, db: db) }
    }

    static func existing(_ ids: [Int64], db: Database) throws -> [Person] {
        var unique: [Int64] = []
        for id in ids where !unique.contains(id) { unique.append(id) }
        let people = try PersonRows.fetch(ids: unique, db: db)
        if let missing = unique.first(where: { id in !people.contains { $0.id == id } }) { throw ContactStoreError.notFound(missing) }
        return people
    }

    /// The first person with the others merged in, as `merge(ids:)` would store it; nothing is written.
    /// The first keeps its names, organisation and chosen number where it has them; numbers and emails are united
    /// (the same number written twice is kept once); notes are joined.
    public static func merged(_ people: [Person]) -> (person: Person, leftOut: (phones: Int, emails: Int)) {
        guard var kept = people.first else { return (Person(), (0, 0)) }
        var leftOut = (phones: 0, emails: 0)
        for other in people.dropFirst() {
            var incoming = other
            if kept.hasName {
                incoming.firstName = ""
                incoming.lastName = ""
                incoming.formattedName = ""
            }
            if kept.organization != nil { incoming.organization = nil }
            // The first keeps its own fields' values; the others' fields it lacks join it.
            incoming.customFields = incoming.customFields.filter { kept.customFields[$0.key] == nil }
            incoming.note = [kept.note, other.note].compactMap { $0 }.reduce(into: [String]()) { notes, note in
                if !notes.contains(note) { notes.append(note) }
            }.joined(separator: "\n").nilIfEmpty
            incoming.revision = nil
            var left = (phones: 0, emails: 0)
            let smsNumber = kept.smsNumber ?? other.smsNumber
            kept = Merger.merge(kept, incoming, left: &left)
            kept.smsNumber = smsNumber
            leftOut.phones += left.phones
            leftOut.emails += left.emails
        }
        return (kept, leftOut)
    }

    /// Merges the people `ids` names into the first of them, in one transaction: the first is updated, the others'
    /// invitations are handed to it and the others are deleted, so nobody who was invited becomes "not invited" by a
    /// merge. Throws `ContactStoreError.notFound` naming an id that does not exist.
    public func merge(ids: [Int64]) throws -> ContactMerge {
        guard Set(ids).count >= 2 else { throw ContactStoreError.mergeNeedsTwo }
        let now = clock.now()
        return try database.write { db in
            let people = try Self.existing(ids, db: db)
            let unique = people.compactMap(\.id)
            let (person, leftOut) = Self.merged(people)
            try PersonRows.update(person, id: unique[0], db: db, now: now)
            try BookCards.written(person, id: unique[0], db: db, now: now)
            try BookCards.removed(ids: Array(unique.dropFirst()), db: db, now: now)
            for id in unique.dropFirst() {
                try db.execute(sql: "UPDATE invitation SET person_id = ? WHERE person_id = ?", arguments: [unique[0], id])
                try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [id])
            }
            try PersonRows.bumpGeneration(db)
            var stored = person
            stored.updatedAt = now
            return ContactMerge(person: stored, removed: Array(people.dropFirst()), leftOut: leftOut)
        }
    }

    /// Deletes the people `ids` in one transaction and returns them as they were (for an undo); an id that does not
    /// exist deletes nothing and is named in the error.
    public func delete(ids: [Int64]) throws -> [Person] {
        try database.write { db in
            let people = try Self.existing(ids, db: db)
            try BookCards.removed(ids: people.compactMap(\.id), db: db, now: clock.now())
            for person in people { try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [person.id]) }
            try PersonRows.bumpGeneration(db)
            return people
        }
    }

    /// Moves the people `ids` to the address book `book` (nil: to no book), in one transaction: each leaves its old
    /// book (a vdir card file removed, a CardDAV card deleted at the next sync) and becomes a new card of the new one.
    /// Answers how many moved (those already there stay).
    @discardableResult
    public func move(ids: [Int64], toBook book: String?) throws -> Int {
        let now = clock.now()
        return try database.write { db in
            if let book { _ = try BookCards.book(named: book, db: db) }
            var moved = 0
            for person in try Self.existing(ids, db: db) {
                guard let id = person.id else { continue }
                let current = try BookCards.card(personId: id, db: db)
                if current?.card.book == book { continue }
                if current != nil {
                    try BookCards.removed(ids: [id], db: db, now: now)
                    try db.execute(sql: "DELETE FROM book_card WHERE person_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM book_trash WHERE person_id = ?", arguments: [id])
                }
                if let book { _ = try BookCards.added(person, id: id, book: book, db: db, now: now) }
                moved += 1
            }
            if moved > 0 { try PersonRows.bumpGeneration(db) }
            return moved
        }
    }

    /// The ids of the people stored after `id` (those an import added).
    public func personIDs(after id: Int64) throws -> [Int64] {
        try database.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM person WHERE id > ? ORDER BY id", arguments: [id]) }
    }

    /// The highest person id stored (0 for an empty book).
    public func lastPersonID() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM person") ?? 0 }
    }

    /// Puts deleted people back under their own ids (the undo of `delete(ids:)` and of a merge).
    public func restore(_ people: [Person]) throws {
        let now = clock.now()
        try database.write { db in
            for person in people {
                guard let id = person.id else { throw ContactStoreError.missingID }
                if try Bool.fetchOne(db, sql: "SELECT 1 FROM person WHERE id = ?", arguments: [id]) == true {
                    try PersonRows.update(person, id: id, db: db, now: now)
                } else {
                    try PersonRows.insert(person, keys: PersonRows.keys(for: person), db: db, now: now, id: id)
                }
            }
            try BookCards.restored(ids: people.compactMap(\.id), db: db)
            try PersonRows.bumpGeneration(db)
        }
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
