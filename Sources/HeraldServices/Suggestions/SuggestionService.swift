import Foundation
import HeraldCore
import HeraldStore

/// Whom to suggest inviting next: HeraldCore's `SuggestionRanker` over the stored people and the
/// ledger's latest statuses (people already invited or pending are left out), rotating through
/// everyone by remembering who was shown in the store's suggestion history.
public actor SuggestionService {
    private let contacts: ContactStore
    private let ledger: LedgerStore
    private let history: SuggestionHistoryStore
    private let clock: any HeraldClock
    public let ranker: SuggestionRanker
    public let owner: RankingOwner

    public init(contacts: ContactStore, ledger: LedgerStore, history: SuggestionHistoryStore, owner: RankingOwner,
                ranker: SuggestionRanker = SuggestionRanker(), clock: any HeraldClock = SystemClock()) {
        self.contacts = contacts
        self.ledger = ledger
        self.history = history
        self.owner = owner
        self.ranker = ranker
        self.clock = clock
    }

    /// The best `count` people to invite now, best first, with the reasons for each.
    public func suggestions(count: Int = 5) throws -> [Suggestion] {
        guard count > 0 else { return [] }
        let statuses = try ledger.latestStatusOfEveryNumber()
        let records = try history.all()
        let entries = records.mapValues { SuggestionHistoryEntry(lastSuggested: $0.lastSuggestedAt, seen: $0.seen) }
        let now = clock.now()
        func rank(_ people: [Person]) -> [Suggestion] {
            ranker.rank(people: people, invitations: .latestStatusByNumber(statuses), history: entries,
                        owner: owner, now: now, count: count)
        }
        // The book a page at a time: the best of each page, then the best of those. The whole book is
        // never in memory at once (100,000 people would be ~100 MB for a few names).
        var finalists: [Person] = []
        var offset = 0
        while true {
            let page = try contacts.people(sortedBy: .firstName, limit: Self.pageSize, offset: offset)
            finalists += rank(page).map(\.person)
            offset += page.count
            if page.count < Self.pageSize { break }
        }
        return rank(finalists)
    }

    /// Records that these suggestions were shown (they move behind everyone not yet shown).
    /// People read and ranked at a time.
    static let pageSize = 5_000

    public func markShown(_ personIds: [Int64]) throws {
        guard !personIds.isEmpty else { return }
        try history.markSuggested(personIds, at: clock.now(), seen: true)
    }

    /// Records that these suggestions were shown.
    public func markShown(_ suggestions: [Suggestion]) throws {
        try markShown(suggestions.compactMap(\.person.id))
    }
}
