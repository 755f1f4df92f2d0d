import Foundation
import HeraldCore
import HeraldStore
import Logging

/// Which people a list shows, in order: everyone (paged from the store by offset) or the ids of
/// a search's matches. Cheap to hold: a list of 100,000 people costs no rows until they are shown.
public struct ContactListing: Sendable, Hashable {
    public let query: String
    public let sort: ContactSort
    /// How many people the list has.
    public let total: Int
    /// The matches in order, for a search; nil for everyone in name order.
    public let ids: [Int64]?

    public init(query: String, sort: ContactSort, total: Int, ids: [Int64]?) {
        self.query = query
        self.sort = sort
        self.total = total
        self.ids = ids
    }
}

/// A person with their invitation state: one row of the contacts list.
public struct ContactEntry: Sendable, Hashable {
    public let person: Person
    public let summary: PersonInvitationSummary
    /// The number an invitation would go to (a valid mobile first), as people read it; else the
    /// first number as written; "" for nobody.
    public let number: String

    public init(person: Person, summary: PersonInvitationSummary) {
        self.person = person
        self.summary = summary
        number = Self.shownNumber(of: person)
    }

    /// The number a list shows for `person`: the one Herald would invite, formatted for reading.
    public static func shownNumber(of person: Person) -> String {
        if let invitable = person.invitableNumbers.first { return PhoneNumberParser.readable(invitable) }
        guard let first = person.phones.first else { return "" }
        return first.number.e164.map(PhoneNumberParser.readable) ?? first.number.raw
    }
}

/// A person and every invitation sent to them, for the detail view.
public struct PersonDetail: Sendable, Hashable {
    public let person: Person
    public let summary: PersonInvitationSummary
    /// Oldest first.
    public let invitations: [InvitationInfo]
}

/// A thin read layer over the contacts and the ledger for screens: a page of people for the
/// visible rows, search, summaries per person, one person's detail with history, and the bulks
/// of the ledger, and the one write a screen makes here (a person's SMS number). Quick: indexed queries, an
/// in-memory search index.
///
/// Every method is `async`: called from the UI (the main actor) it must be awaited and runs off that thread, so a
/// view-model cannot read SQLite on the UI thread by mistake. The stores themselves are not reachable from outside
/// this module.
public struct ContactBook: Sendable {
    let contacts: ContactStore
    let ledger: LedgerStore
    /// Reads the numbers of a contact added or edited here.
    let parser: PhoneNumberParser
    /// The rows shown lately: the next keystroke reads only the people it did not show yet.
    private let shown = ShownPeople()

    /// Where the searches made in Contacts are kept.
    let settings: SettingsStore

    init(contacts: ContactStore, ledger: LedgerStore, settings: SettingsStore, parser: PhoneNumberParser) {
        self.contacts = contacts
        self.ledger = ledger
        self.settings = settings
        self.parser = parser
    }

    /// How many people are stored.
    public func count() async throws -> Int { try contacts.count() }

    /// The list for `query` (empty: everyone) in `sort` order; with `duplicatesOnly`, the people who look like one
    /// person, group after group (the query is then not used).
    public func listing(query: String, sort: ContactSort, duplicatesOnly: Bool = false) async throws -> ContactListing {
        if duplicatesOnly {
            let ids = try contacts.duplicates().flatMap(\.ids)
            return ContactListing(query: "", sort: sort, total: ids.count, ids: ids)
        }
        if let hits = try ContactSearch(contacts: contacts, ledger: ledger).hits(try ContactQuery(query), sortedBy: sort) {
            return ContactListing(query: query, sort: sort, total: hits.total, ids: hits.hits.map(\.personId))
        }
        return ContactListing(query: "", sort: sort, total: try contacts.count(), ids: nil)
    }

    /// The rows `range` of a listing (clamped), each with its invitation summary.
    public func entries(_ listing: ContactListing, range: Range<Int>) async throws -> [ContactEntry] {
        let lower = max(0, range.lowerBound), upper = min(listing.total, range.upperBound)
        guard lower < upper else { return [] }
        let rows: [ShownPeople.Row]
        if let ids = listing.ids {
            rows = try shown.rows(ids: Array(ids[lower..<min(upper, ids.count)]), database: contacts.database)
        } else {
            rows = try shown.rows(sortedBy: listing.sort, limit: upper - lower, offset: lower, database: contacts.database)
        }
        return rows.map { ContactEntry(person: $0.person, summary: $0.summary) }
    }

    /// Every id of a listing, in order (for select all / invert).
    public func ids(of listing: ContactListing) async throws -> [Int64] {
        if let ids = listing.ids { return ids }
        return try contacts.personIDs(sortedBy: listing.sort)
    }

    /// The ids of a listing whose people are in `state`, in order; read a few thousand at a time.
    public func ids(of listing: ContactListing, in state: StateSelection, batch: Int = 2_000) async throws -> [Int64] {
        var picked: [Int64] = []
        var start = 0
        while start < listing.total {
            for entry in try await entries(listing, range: start..<start + batch) where state.matches(entry.person, entry.summary) {
                if let id = entry.person.id { picked.append(id) }
            }
            start += batch
        }
        return picked
    }

    /// Chooses the number this person's invitations go to (nil: Herald picks again).
    public func setSMSNumber(_ e164: String?, personId: Int64) async throws { try contacts.setSMSNumber(e164, personId: personId) }

    /// The person with this id, nil when there is none.
    public func person(id: Int64) async throws -> Person? { try contacts.person(id: id) }

    /// People with these ids, in the order given.
    public func people(ids: [Int64]) async throws -> [Person] { try contacts.people(ids: ids) }

    /// The latest delivery status of each of these numbers that was ever invited (E.164 → status).
    public func latestStatuses(msisdns: [String]) async throws -> [String: DeliveryStatus] {
        try ledger.latestStatuses(msisdns: msisdns)
    }

    /// The invitation summaries of these people, from one query.
    public func summaries(for people: [Person]) async throws -> [PersonInvitationSummary] { try ledger.summaries(for: people) }

    /// One person with every invitation, nil when there is no such person.
    public func detail(personId: Int64) async throws -> PersonDetail? {
        guard let person = try contacts.person(id: personId) else { return nil }
        let invitations = try ledger.invitations(for: person)
        return PersonDetail(person: person, summary: PersonInvitationSummary(person: person, invitations: invitations),
                            invitations: invitations)
    }

    static let keySearchHistory = "contacts.search_history"

    /// The searches made in Contacts, oldest first (kept across runs).
    public func searchHistory() async throws -> [String] {
        guard let json = try settings.string(Self.keySearchHistory) else { return [] }
        do { return try JSONDecoder().decode([String].self, from: Data(json.utf8)) } catch {
            // A history written by something else is started afresh rather than refused, and said in the log.
            Logger(label: "herald.contacts").warning("the search history cannot be read; starting a new one",
                                                     metadata: ["cause": "\(logCause(error))"])
            return []
        }
    }

    /// Keeps the searches made in Contacts for the next run.
    public func saveSearchHistory(_ entries: [String]) async throws {
        try settings.set(Self.keySearchHistory, String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
    }

    /// Builds the search index now (a first search on 100,000 people would otherwise pay for it).
    public func warmUp(sortedBy sort: ContactSort = .firstName) async throws { try contacts.warmUpSearch(sortedBy: sort) }
}
