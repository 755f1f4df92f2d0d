import Foundation
import HeraldCore
import HeraldServices

/// Hears what a `ContactFeed` publishes (model: k9s's `TableListener`); the view-model moves its cursor with it.
public protocol ContactFeedListener: AnyObject {
    /// A listing came in and its first rows are stored; `keep` is the person the cursor was on when it was asked
    /// for, `changed` whether it answers another query or sort than the one before.
    func listingInstalled(keep: Int64?, changed: Bool)
    /// The query could not be read (`status:maybe`): the listing shown stays.
    func queryRefused(_ message: String)
    /// A listing asked while another was read: read it now (with the query and cursor as they stand).
    func relist(keepingCursor: Bool)
    /// The Suggested block grew or shrank by `shift` rows from `before` rows: the people rows moved along.
    func suggestionsShifted(by shift: Int, from before: Int)
    /// The suggestions could not be read.
    func suggestionsFailed(_ error: any Error)
}

/// The contacts list's data, apart from the screen (model: k9s `internal/model/table.go`): a listing (everyone, or a
/// search's matches), the rows of it read so far (`ContactPages`), and the Suggested block on top. Reads happen off
/// the UI thread; a listing asked while one is being read waits for it and is asked again once (overlapping listings
/// are not read twice), and every read carries the generation of the listing it was asked for, so a late answer to an
/// older search is dropped. A failed read is reported (`loadError`) and the rows read before stay.
public final class ContactFeed {
    public let book: ContactBook
    private let suggestionService: SuggestionService?
    private let effects: EffectQueue
    public weak var listener: (any ContactFeedListener)?

    public private(set) var listing = ContactListing(query: "", sort: .firstName, total: 0, ids: nil)
    /// The Suggested block, shown above the list when there is no search.
    public private(set) var suggested: [Suggestion] = []
    private(set) var suggestionRows: [ContactRow] = []
    /// True while the list shows only the people who look like one person (`=`), group after group.
    public var showsDuplicates = false
    /// A problem reading the store, shown in place of the list.
    public private(set) var loadError: String?
    /// True until the first listing arrived.
    public private(set) var isLoading = true
    /// True while a listing for a newer query or sort is being read.
    public private(set) var isListing = false
    /// How many suggestions to ask for.
    public var suggestionCount = 5
    /// Rows read around the window shown, above and below it.
    public var readAhead = 60
    /// Rows read beyond the screen for a listing not read yet (a keystroke's results).
    public var firstReadAhead = 5

    /// The rows read so far and the reads under way.
    private var pages = ContactPages()
    private var listingInFlight = false
    private var relistWanted = false
    private var relistKeepsCursor = true

    /// Reads nothing yet: `reload` reads the first listing once a listener is there to hear it.
    public init(book: ContactBook, suggestions: SuggestionService?, effects: EffectQueue) {
        self.book = book
        suggestionService = suggestions
        self.effects = effects
    }

    // MARK: rows

    /// Rows in the list: the suggestions (without a search) then the people.
    public var count: Int { visibleSuggestions.count + listing.total }
    /// The suggestions shown now (none during a search).
    public var visibleSuggestions: [Suggestion] { listing.query.isEmpty && !showsDuplicates ? suggested : [] }

    /// The row at `index` (suggestions first), when it was read.
    func row(at index: Int) -> ContactRow? {
        index < visibleSuggestions.count ? suggestionRows[safe: index] : pages[index]
    }

    /// The rows of `range` (clamped), nil for a row not read yet. Memory only: it starts nothing (`show` does).
    public func rows(in range: Range<Int>) -> [ContactRow?] {
        let lower = max(0, range.lowerBound), upper = min(count, range.upperBound)
        guard lower < upper else { return [] }
        let suggestions = visibleSuggestions.count
        return (lower..<upper).map { $0 < suggestions ? suggestionRows[safe: $0] : pages[$0] }
    }

    /// The window the screen shows now: it is read again when the ledger or the contacts change, and the rows it
    /// lacks are read off the UI thread.
    public func show(_ range: Range<Int>) {
        let lower = max(0, range.lowerBound), upper = min(count, range.upperBound)
        guard lower < upper else { return }
        pages.shown = lower..<upper
        if rows(in: pages.shown).contains(where: { $0 == nil }) { request(pages.shown) }
    }

    private func request(_ range: Range<Int>) {
        guard let people = pages.plan(range, suggestions: visibleSuggestions.count, total: listing.total,
                                      readAhead: readAhead, firstReadAhead: firstReadAhead) else { return }
        read(people: people, generation: pages.generation, listing: listing)
    }

    /// Reads people `range` of `listing` with their summaries, and stores them as rows.
    private func read(people range: Range<Int>, generation: Int, listing: ContactListing) {
        let book = self.book
        // One row before the range, to know whether the first one starts a section.
        let from = max(0, range.lowerBound - 1)
        effects.perform({ try await book.entries(listing, range: from..<range.upperBound) }, then: { [weak self] result in
            guard let self, self.pages.finishRead(generation: generation) else { return }
            defer {
                if self.pages.refreshAfterRead { self.pages.refreshAfterRead = false; self.refreshRows() }
            }
            switch result {
            case .success(let entries):
                self.storeRows(entries, from: from, keepingFrom: range.lowerBound, listing: listing)
                self.loadError = nil
            case .failure(let error):
                self.loadError = "could not read the contacts: \(userMessage(for: error))"
            }
            if let wanted = self.pages.wanted {
                self.pages.wanted = nil
                self.show(wanted)
            }
        })
    }

    /// Entries read from listing index `from`, stored as rows under the suggestions (in the duplicates view without
    /// A–Z sections: its groups are not in name order).
    private func storeRows(_ entries: [ContactEntry], from: Int, keepingFrom lower: Int, listing: ContactListing) {
        let sections = !showsDuplicates, marks = ContactQuery.highlightWords(listing.query), sort = listing.sort
        pages.store(entries, from: from, keepingFrom: lower, offset: visibleSuggestions.count,
                    section: { sections ? ContactsViewModel.section(of: $0, sort: sort) : nil },
                    row: { entry, section, starts in
                        ContactsViewModel.makeRow(entry.person, entry.summary, number: entry.number, section: section, starts: starts,
                                                  reasons: nil, query: marks)
                    })
    }

    // MARK: listing

    /// Reads the listing for `query` and `sort` (off the UI thread) with the first screen of rows around `keep` (the
    /// person the cursor is on), else where the window stands (`keepingCursor`) or at the top. Asked while another
    /// listing is being read, it waits for that one and the listener is asked to relist once.
    func reload(query: String, sort: ContactSort, keep: Int64?, keepingCursor: Bool) {
        guard !listingInFlight else {
            relistWanted = true
            relistKeepsCursor = relistKeepsCursor && keepingCursor
            return
        }
        listingInFlight = true
        isListing = true
        let token = pages.startListing(), book = self.book, duplicates = showsDuplicates
        if !keepingCursor { pages.shown = 0..<pages.shown.count }
        let first = max(0, pages.shown.lowerBound - visibleSuggestions.count)
        // The rows shown and a few more: a new search answers with one screen, the rest comes on scrolling.
        let window = first..<(first + max(pages.shown.count, 30) + 10)
        effects.perform({ () throws -> ListingRead in
            let listing = try await book.listing(query: query, sort: sort, duplicatesOnly: duplicates)
            let keepAt = keep.flatMap { id in listing.ids?.firstIndex(of: id) }
            let start = keepAt.map { max(0, $0 - window.count / 2) } ?? min(window.lowerBound, max(0, listing.total - window.count))
            let from = max(0, start - 1)
            return ListingRead(listing: listing, from: from, start: start,
                               entries: try await book.entries(listing, range: from..<(start + window.count)))
        }, then: { [weak self] result in
            guard let self else { return }
            self.listingInFlight = false
            defer {
                if self.relistWanted {
                    let keeping = self.relistKeepsCursor
                    self.relistWanted = false
                    self.relistKeepsCursor = true
                    self.listener?.relist(keepingCursor: keeping)
                }
            }
            guard token == self.pages.generation else { return }
            self.isLoading = false
            self.isListing = false
            switch result {
            case .success(let read):
                let changed = read.listing.query != self.listing.query || read.listing.sort != self.listing.sort
                self.listing = read.listing
                self.loadError = nil
                self.pages.clear()
                self.storeRows(read.entries, from: read.from, keepingFrom: read.start, listing: read.listing)
                self.listener?.listingInstalled(keep: keep, changed: changed)
            case .failure(let error as ContactQueryError):
                self.listener?.queryRefused(error.message)
            case .failure(let error):
                self.loadError = "could not read the contacts: \(userMessage(for: error))"
            }
        })
    }

    /// Reads the rows shown again (their invitation states changed), keeping them on screen meanwhile.
    public func refreshRows() {
        let suggestions = visibleSuggestions.count
        if suggestions > 0, !pages.shown.isEmpty, pages.reading == nil { refreshSuggestionRows() }
        guard let people = pages.planRefresh(suggestions: suggestions, total: listing.total) else { return }
        read(people: people, generation: pages.generation, listing: listing)
    }

    // MARK: suggestions

    /// Asks the suggestion service for the Suggested block; the people shown are recorded as seen.
    public func loadSuggestions() {
        guard let service = suggestionService else { return }
        let wanted = suggestionCount, book = self.book
        effects.perform({ () async throws -> ([Suggestion], [PersonInvitationSummary]) in
            let found = try await service.suggestions(count: wanted)
            try await service.markShown(found)
            return (found, try await book.summaries(for: found.map(\.person)))
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let (found, summaries)):
                let before = self.visibleSuggestions.count
                self.suggested = found
                self.suggestionRows = Self.suggestionRows(found, summaries)
                // People rows sit after the suggestions: move them (and a cursor among them) along.
                let shift = self.visibleSuggestions.count - before
                if shift != 0 {
                    self.pages.shift(by: shift)
                    self.listener?.suggestionsShifted(by: shift, from: before)
                }
            case .failure(let error):
                self.listener?.suggestionsFailed(error)
            }
        })
    }

    private static func suggestionRows(_ found: [Suggestion], _ summaries: [PersonInvitationSummary]) -> [ContactRow] {
        zip(found, summaries).map {
            ContactsViewModel.makeRow($0.person, $1, number: PhoneNumberParser.readable($0.number), section: nil, starts: false,
                                      reasons: $0.reasons, query: "")
        }
    }

    private func refreshSuggestionRows() {
        let book = self.book, found = suggested
        effects.perform({ try await book.summaries(for: found.map(\.person)) }, then: { [weak self] result in
            guard let self, case .success(let summaries) = result, self.suggested == found else { return }
            self.suggestionRows = Self.suggestionRows(found, summaries)
        })
    }
}
