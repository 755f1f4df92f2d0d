import Foundation
import GRDB
import HeraldCore

/// Finds the people a `ContactQuery` asks for: the contacts' search index answers words and fields, the ledger
/// answers `status:`. What `/` in Contacts, `contacts list --search` and `contacts query` share.
public struct ContactSearch: Sendable {
    let contacts: ContactStore
    let ledger: LedgerStore

    public init(contacts: ContactStore, ledger: LedgerStore) {
        self.contacts = contacts
        self.ledger = ledger
    }

    /// How many people match and the best `limit` of them (all when nil), best first, then name order; nil for an
    /// empty query (everyone, in name order).
    public func hits(_ query: ContactQuery, sortedBy sort: ContactSort = .firstName,
                     limit: Int? = nil) throws -> (total: Int, hits: [SearchHit])? {
        try hits(query, sortedBy: sort, limit: limit, within: [])
    }

    /// `hits`, inside the segments `chain` (the ones being worked out, so that one using itself is refused).
    private func hits(_ query: ContactQuery, sortedBy sort: ContactSort, limit: Int?,
                      within chain: [String]) throws -> (total: Int, hits: [SearchHit])? {
        guard !query.isEmpty else { return nil }
        let wanted = query.terms.filter { $0.field == .status }.compactMap { term in term.state.map { ($0, term.negated) } }
        var sets: [(Set<Int64>, Bool)] = []
        for term in query.terms {
            switch term.field {
            case .book: sets.append((try members(ofBook: term.value), term.negated))
            case .group: sets.append((try members(ofGroup: term.value), term.negated))
            case .segment: sets.append((try members(ofSegment: term.value, within: chain), term.negated))
            default: break
            }
        }
        guard !wanted.isEmpty || !sets.isEmpty else { return try contacts.searchHits(query, sortedBy: sort, limit: limit) }
        let states = wanted.isEmpty ? [:] : try ledger.personStates()
        // The smallest set a match must be in: the index looks at its people only (a group of 1,000 in a book of
        // 100,000 is 1,000 lookups, not 100,000).
        let within = sets.filter { !$0.1 }.map(\.0).min { $0.count < $1.count }
        return try contacts.searchHits(query, sortedBy: sort, limit: limit, keep: { id in
            let state = states[id] ?? .notInvited
            return wanted.allSatisfy { (state == $0.0) != $0.1 } && sets.allSatisfy { $0.0.contains(id) != $0.1 }
        }, within: within)
    }

    /// The people of the book named `name` (case ignored); an unknown name is said with the books there are.
    private func members(ofBook name: String) throws -> Set<Int64> {
        try contacts.database.read { db in
            let names = try String.fetchAll(db, sql: "SELECT name FROM book ORDER BY name")
            guard let book = names.first(where: { $0.lowercased() == name.lowercased() }) else {
                throw ContactQueryError.unknownBook(name, known: names)
            }
            return Set(try Int64.fetchAll(db, sql: "SELECT person_id FROM book_card WHERE book = ?", arguments: [book]))
        }
    }

    /// The people in the group `name` (folded as names are), by the index on folded group names.
    private func members(ofGroup name: String) throws -> Set<Int64> {
        try contacts.database.read { db in
            Set(try Int64.fetchAll(db.cachedStatement(sql: "SELECT person_id FROM person_group WHERE folded = ?"),
                                   arguments: [PersonGroups.fold(name)]))
        }
    }

    /// The people the saved segment `name` finds now; an unknown name is said with the segments there are, and one
    /// met again inside itself is refused.
    private func members(ofSegment name: String, within chain: [String]) throws -> Set<Int64> {
        let segments = SavedSegments(contacts: contacts)
        guard let segment = try segments.segment(named: name) else {
            throw ContactQueryError.unknownSegment(name, known: try segments.list().map(\.name))
        }
        if chain.contains(where: { PersonGroups.fold($0) == PersonGroups.fold(segment.name) }) {
            throw ContactQueryError.segmentCycle(chain + [segment.name])
        }
        let query = try ContactQuery(segment.query)
        guard let found = try hits(query, sortedBy: .firstName, limit: nil, within: chain + [segment.name]) else {
            return Set(try contacts.personIDs())
        }
        return Set(found.hits.map(\.personId))
    }

    /// The names of every group, each once, with how many people are in it (by name).
    public func groups() throws -> [(name: String, people: Int)] {
        try contacts.database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT MIN(name), COUNT(*) FROM person_group GROUP BY folded ORDER BY folded
                """).map { ($0[0], $0[1]) }
        }
    }

    /// The people matching `query` (everyone for an empty one) and how many matched in all.
    public func people(_ query: ContactQuery, sortedBy sort: ContactSort = .firstName, limit: Int? = nil) throws -> ContactPage {
        guard let found = try hits(query, sortedBy: sort, limit: limit) else {
            return ContactPage(total: try contacts.count(), people: try contacts.people(sortedBy: sort, limit: limit))
        }
        return ContactPage(total: found.total, people: try contacts.people(ids: found.hits.map(\.personId)))
    }
}

extension LedgerStore {
    /// The state of every person the ledger knows (an invitation to them or to one of their numbers); everyone else
    /// is not invited. Reads only the people who were ever invited.
    public func personStates() throws -> [Int64: InvitationState] {
        try database.read { db in
            let ids = try Int64.fetchAll(db, sql: """
                SELECT person_id FROM invitation WHERE person_id IS NOT NULL
                UNION SELECT phone.person_id FROM phone JOIN invitation ON invitation.msisdn = phone.e164
                """)
            let people = try PersonRows.fetch(ids: ids, db: db)
            var states: [Int64: InvitationState] = [:]
            states.reserveCapacity(people.count)
            for (person, summary) in zip(people, try Self.summaries(for: people, db: db)) {
                if let id = person.id { states[id] = summary.state }
            }
            return states
        }
    }
}
