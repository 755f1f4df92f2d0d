import Foundation
import GRDB
import HeraldCore

/// A page of matching people and how many matched in all.
public struct ContactPage: Sendable {
    /// Number of people matching (not just the ones returned).
    public let total: Int
    public let people: [Person]
}

/// The address book in `herald.sqlite`: listing, lookup, search, and single-person writes.
public struct ContactStore: Sendable {
    public let database: HeraldDatabase
    private let indexCache = SearchIndexCache()
    /// Where the search index is saved between processes (next to the database).
    private var indexFile: String { database.path + ".search-index" }
    let clock: any HeraldClock

    public init(database: HeraldDatabase, clock: any HeraldClock = SystemClock()) {
        self.database = database
        self.clock = clock
    }

    /// How many people are stored.
    public func count() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") ?? 0 }
    }

    /// How many people's search keys contain `text`, by a plain SQL `LIKE '%text%'` scan: the baseline the benchmarks
    /// hold the search index to, not a way to search.
    public func likeScanCount(_ text: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person WHERE search_key LIKE ?", arguments: ["%\(text)%"]) ?? 0
        }
    }

    /// People in name order, `limit` of them from `offset`.
    public func people(sortedBy sort: ContactSort = .firstName, limit: Int? = nil, offset: Int = 0) throws -> [Person] {
        try database.read { db in
            try PersonRows.fetch(ids: PersonRows.ids(sortedBy: sort, limit: limit, offset: offset, db: db), db: db)
        }
    }

    /// Ids of every person in name order (cheap: for lists that load rows lazily).
    public func personIDs(sortedBy sort: ContactSort = .firstName) throws -> [Int64] {
        try database.read { db in try PersonRows.ids(sortedBy: sort, db: db) }
    }

    /// One person with phones and emails, nil when there is none with this id.
    public func person(id: Int64) throws -> Person? {
        try database.read { db in try PersonRows.fetch(ids: [id], db: db).first }
    }

    /// People with these ids, in the order given; unknown ids are left out.
    public func people(ids: [Int64]) throws -> [Person] {
        try database.read { db in try PersonRows.fetch(ids: ids, db: db) }
    }

    /// Case- and diacritic-insensitive search over names, organisation and emails; digits also match
    /// phone numbers (E.164, national form, as written). Best matches first, then name order.
    /// An empty query lists everyone in name order.
    public func search(_ query: String, sortedBy sort: ContactSort = .firstName, limit: Int? = nil) throws -> ContactPage {
        let hits = try searchHits(query, sortedBy: sort, limit: limit)
        guard let hits else {
            return ContactPage(total: try count(), people: try people(sortedBy: sort, limit: limit))
        }
        return ContactPage(total: hits.total, people: try people(ids: hits.hits.map(\.personId)))
    }

    /// The ids and scores of the best matches (nil for an empty query), without loading people.
    public func searchHits(_ query: String, sortedBy sort: ContactSort = .firstName,
                           limit: Int? = nil) throws -> (total: Int, hits: [SearchHit])? {
        if query.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
        UIThreadGuard.storageTouched("search")
        let index = try indexCache.current(database.pool, savedAt: indexFile)
        return index.search(query, byLastName: sort == .lastName, limit: limit)
    }

    /// `searchHits` for a query with fields and `not`s (see `ContactQuery`); `keep` has the last word on each person
    /// (what the ledger says for `status:`). Nil for an empty query.
    func searchHits(_ query: ContactQuery, sortedBy sort: ContactSort, limit: Int?,
                    keep: ((Int64) -> Bool)? = nil, within: Set<Int64>? = nil) throws -> (total: Int, hits: [SearchHit])? {
        guard !query.isEmpty else { return nil }
        UIThreadGuard.storageTouched("search")
        let index = try indexCache.current(database.pool, savedAt: indexFile)
        return index.search(query, byLastName: sort == .lastName, limit: limit, keep: keep, within: within)
    }

    /// Builds (or loads) the search index now instead of on the first query, and works out the answers
    /// to one-character queries in `sort` order, so the first keystroke of a search is as quick as the rest.
    public func warmUpSearch(sortedBy sort: ContactSort = .firstName) throws {
        try indexCache.current(database.pool, savedAt: indexFile).answerFirstKeystrokes(byLastName: sort == .lastName)
    }

    /// Stores a new person; returns it with its id.
    @discardableResult
    public func insert(_ person: Person) throws -> Person {
        let now = clock.now()
        var stored = person
        stored.id = try database.write { db in
            let id = try PersonRows.insert(person, db: db, now: now)
            try PersonRows.bumpGeneration(db)
            return id
        }
        stored.createdAt = stored.createdAt ?? now
        stored.updatedAt = now
        return stored
    }

    /// Replaces the stored person with the same id.
    public func update(_ person: Person) throws {
        guard let id = person.id else { throw ContactStoreError.missingID }
        let now = clock.now()
        try database.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM person WHERE id = ?", arguments: [id]) != nil else {
                throw ContactStoreError.notFound(id)
            }
            try PersonRows.update(person, id: id, db: db, now: now)
            try PersonRows.bumpGeneration(db)
        }
    }

    /// Chooses the number a person's invitations go to (E.164), or lets Herald pick again (nil).
    public func setSMSNumber(_ e164: String?, personId: Int64) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE person SET sms_number = ? WHERE id = ?", arguments: [e164, personId])
            guard db.changesCount > 0 else { throw ContactStoreError.notFound(personId) }
            try PersonRows.bumpGeneration(db)
        }
    }

    /// Deletes a person (their invitations stay in the ledger, without a person).
    public func delete(id: Int64) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [id])
            try PersonRows.bumpGeneration(db)
        }
    }

    /// Ids of the people having this E.164 number.
    public func personIDs(withNumber e164: String) throws -> [Int64] {
        try database.read { db in
            try Int64.fetchAll(db, sql: "SELECT DISTINCT person_id FROM phone WHERE e164 = ?", arguments: [e164])
        }
    }

    /// The person each of these E.164 numbers belongs to, in one read (a page of conversations named at once); a number
    /// several people share gives the one stored first (lowest id); numbers nobody has are left out.
    public func personIDs(withNumbers numbers: [String]) throws -> [String: Int64] {
        let unique = Array(Set(numbers))
        guard !unique.isEmpty else { return [:] }
        return try database.read { db in
            var out: [String: Int64] = [:]
            var start = 0
            while start < unique.count {
                let end = min(start + 512, unique.count)
                let size = PersonRows.paddedCount(end - start)
                var values: [DatabaseValue] = unique[start..<end].map { $0.databaseValue }
                values.append(contentsOf: repeatElement(DatabaseValue.null, count: size - values.count))
                let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                    SELECT e164, MIN(person_id) FROM phone WHERE e164 IN (\(PersonRows.marks(size))) GROUP BY e164
                    """), arguments: StatementArguments(values))
                while let row = try rows.next() { out[row[0]] = row[1] }
                start = end
            }
            return out
        }
    }
}

public enum ContactStoreError: Error, Sendable, CustomStringConvertible {
    case missingID
    case notFound(Int64)
    case mergeNeedsTwo
    /// An edit with a `Book:` line was stored, but the move into the book failed (its card file could not be written).
    case savedNotMoved(Int64, book: String, because: String)

    public var description: String {
        switch self {
        case .savedNotMoved(let id, let book, let because):
            return "the edit of person \(id) is saved, but it was not moved to book \(book): \(because)"
        case .missingID: return "the person has no id: store it first"
        case .notFound(let id): return "no person with id \(id): list people with `herald contacts list`"
        case .mergeNeedsTwo: return "a merge needs at least two different people"
        }
    }
}
