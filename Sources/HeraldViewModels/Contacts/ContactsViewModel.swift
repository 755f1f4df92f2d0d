import Foundation
import HeraldCore
import HeraldServices

/// A listing and the first rows of it, read together.
nonisolated struct ListingRead: Sendable {
    let listing: ContactListing
    /// Index of the first entry; entries before `start` only tell where a section begins.
    let from: Int
    let start: Int
    let entries: [ContactEntry]
}

nonisolated extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// The Contacts pane's state: the Suggested block on top of the A–Z list, incremental search,
/// sort, selection, the detail of one person and the invite flow.
///
/// Selecting lives in `ContactsViewModel+Selection.swift` (its rules in `ContactSelection`), a person's detail in
/// `ContactsViewModel+Detail.swift`; this file holds the list: listing, paging the rows shown, search, sort.
///
/// Nothing here reads the store on the UI thread. A listing (everyone, or a search's matches) and
/// the rows of a window are read by effects; until they arrive the list keeps what it showed
/// (marked as loading), and a row not read yet is shown as a placeholder. Every read carries the
/// generation of the listing it was asked for, so a late answer to an older search is dropped.
public final class ContactsViewModel {
    public let context: ViewModelContext
    /// The listing, the rows read of it and the Suggested block.
    public let feed: ContactFeed
    /// The platform's opt-out list, through the invitation service (`O`); nil where nothing sends.
    public let invites: InviteService?
    /// The address books (`[[books]]`), whose state the title shows; nil when the workspace has none to show.
    public let books: BookSyncer?
    /// The conversations, for the last messages at the end of a person's detail; nil: not shown.
    let conversations: ConversationService?

    public private(set) var sort: ContactSort = .firstName
    /// The search field: the query typed, whether it has the keyboard, what is wrong with it, the searches before.
    public private(set) var search = ContactSearchField()
    public internal(set) var cursor = 0
    /// Who is selected, what `u` brings back, where a range started (`ContactsViewModel+Selection.swift`).
    public internal(set) var picks = ContactSelection()
    /// The person open in the detail, with the number under its cursor (`ContactsViewModel+Detail.swift`).
    public internal(set) var opened: OpenedPerson?
    /// How each address book stands, for the title; nil until read (and without books).
    public private(set) var bookStatus: BookStatus?
    /// The merge waiting for a yes, with what it would store (`ContactsViewModel+Editing.swift`).
    public internal(set) var mergeQuestion: MergePreview?
    /// The conflict waiting for a choice (`ContactsViewModel+Conflicts.swift`).
    public internal(set) var conflictQuestion: ConflictQuestion?
    /// The people the last delete removed, for `u`.
    var deletedForUndo: [Person]?

    public init(book: ContactBook, suggestions: SuggestionService?, invites: InviteService? = nil, books: BookSyncer? = nil,
                conversations: ConversationService? = nil, context: ViewModelContext) {
        self.context = context
        self.conversations = conversations
        feed = ContactFeed(book: book, suggestions: suggestions, effects: context.effects)
        self.invites = invites
        self.books = books
        feed.listener = self
        reload()
        loadSearchHistory()
        loadBookStates()
    }

    var effects: EffectQueue { context.effects }
    var toasts: ToastBoard { context.toasts }
    public var book: ContactBook { feed.book }

    // MARK: what the feed and the search field hold

    public var listing: ContactListing { feed.listing }
    /// The Suggested block, shown above the list when there is no search.
    public var suggested: [Suggestion] { feed.suggested }
    public var query: String { search.query }
    /// True while the search field has the keyboard.
    public var isSearching: Bool { search.isSearching }
    /// What is wrong with the query typed (`status:maybe`), shown by the search field; the list keeps the last
    /// query's answer meanwhile.
    public var queryProblem: String? { search.problem }
    /// The searches made before, for ↑ and ↓ in the search field.
    public var history: SearchHistory { search.history }
    public var selection: Set<Int64> { picks.ids }
    /// Where a visual range (`v`) started; nil when none is being marked.
    public var rangeAnchor: Int? { picks.rangeAnchor }
    /// The person open in the detail.
    public var detail: PersonDetailView? { opened?.view }
    /// The number under the cursor in the open detail (an index into its numbers).
    public var detailNumber: Int { opened?.number ?? 0 }
    /// "books: personal ✓ · work: 1 conflict to settle": how each book stands, nil without books.
    public var bookLine: String? { bookStatus?.line }
    /// The books of the config, in order: where `a` may put a new contact.
    public var bookNames: [String] { bookStatus?.names ?? [] }
    /// A problem reading the store, shown in place of the list.
    public var loadError: String? { feed.loadError }
    /// True until the first listing arrived.
    public var isLoading: Bool { feed.isLoading }
    /// True while a listing for a newer query or sort is being read.
    public var isListing: Bool { feed.isListing }
    /// True while the list shows only the people who look like one person (`=`), group after group.
    public var showsDuplicates: Bool { feed.showsDuplicates }
    /// How many suggestions to ask for.
    public var suggestionCount: Int {
        get { feed.suggestionCount }
        set { feed.suggestionCount = newValue }
    }
    /// Rows read around the window shown, above and below it.
    public var readAhead: Int {
        get { feed.readAhead }
        set { feed.readAhead = newValue }
    }

    // MARK: the list

    /// Rows in the list: the suggestions (without a search) then the people.
    public var count: Int { feed.count }
    /// The suggestions shown now (none during a search).
    public var visibleSuggestions: [Suggestion] { feed.visibleSuggestions }
    /// True when the address book has nobody in it.
    public var isAddressBookEmpty: Bool { !isLoading && query.isEmpty && !showsDuplicates && listing.total == 0 && loadError == nil }

    /// The window the screen shows now (the layout pass tells): it is read again when the ledger or the contacts
    /// change, and the rows it lacks are read off the UI thread.
    public func show(_ range: Range<Int>) { feed.show(range) }

    /// The rows of `range` (clamped), nil for a row not read yet. Memory only: it starts nothing (`show` does).
    public func rows(in range: Range<Int>) -> [ContactRow?] { feed.rows(in: range) }

    /// The row under the cursor, when it was read.
    public var currentRow: ContactRow? { feed.row(at: cursor) }

    static func makeRow(_ person: Person, _ summary: PersonInvitationSummary, number: String, section: String?, starts: Bool,
                        reasons: [String]?, query marks: String) -> ContactRow {
        let name = TerminalSafeText.sanitize(person.displayName)
        return ContactRow(person: person, summary: summary, badge: InvitationBadge(summary: summary, hasPhones: !person.phones.isEmpty), section: section,
                          startsSection: starts, reasons: reasons, name: name,
                          matches: SearchHighlight.ranges(of: marks, in: name), shownNumber: TerminalSafeText.sanitize(number))
    }

    /// The A–Z section of a person in `sort` order: a capital letter, or "#" for anything else.
    public static func section(of person: Person, sort: ContactSort) -> String {
        let first = person.firstName.trimmedSpaces
        let last = person.lastName.trimmedSpaces
        var key = sort == .firstName ? (first.isEmpty ? last : first) : (last.isEmpty ? first : last)
        if key.isEmpty { key = person.displayName }
        // A plain ASCII letter, not followed by a combining mark, is its own section (nearly every name):
        // without Foundation's folding.
        let bytes = key.utf8
        if let b = bytes.first, b < 0x80, bytes.dropFirst().first.map({ $0 < 0x80 }) ?? true {
            switch b {
            case 0x41...0x5A: return String(UnicodeScalar(b))
            case 0x61...0x7A: return String(UnicodeScalar(b - 0x20))
            default: return "#"
            }
        }
        guard let c = key.first else { return "#" }
        let folded = TextFolding.fold(String(c)).uppercased()      // Đ under D, as the list is sorted
        guard let letter = folded.first, letter.isASCII, letter.isLetter else { return "#" }
        return String(letter)
    }

    /// Reads the list again for the current query and sort (off the UI thread), with the first
    /// screen of rows; the cursor stays on the same person when it can (a new search starts at the top).
    public func reload() { reload(keepingCursor: true) }

    func reload(keepingCursor: Bool) {
        feed.reload(query: query, sort: sort, keep: keepingCursor ? currentRow?.personId : nil, keepingCursor: keepingCursor)
    }

    /// Reads the rows shown again (their invitation states changed), keeping them on screen meanwhile.
    public func refreshRows() { feed.refreshRows() }

    static func describe(_ error: any Error) -> String { (error as? any UserFacingError)?.userMessage ?? "\(error)" }

    // MARK: cursor

    public func moveCursor(to index: Int) { cursor = max(0, min(index, count - 1)) }
    public func moveCursor(by delta: Int) { moveCursor(to: cursor + delta) }

    // MARK: suggestions

    /// Builds the search index in the background and answers the one-character queries ahead, so the first
    /// keystroke of a search is quick (again when the sort changes).
    public func warmUpSearch() {
        let book = self.book, sort = self.sort
        effects.perform({ try await book.warmUp(sortedBy: sort) }, then: { _ in })
    }

    /// Asks the suggestion service for the Suggested block; the people shown are recorded as seen.
    public func loadSuggestions() { feed.loadSuggestions() }

    // MARK: search and sort

    public func beginSearch() {
        search.isSearching = true
        search.history.restart()
    }

    /// Leaves the search field; the results stay (Esc again clears them), and the query joins the history.
    public func endSearch() {
        search.isSearching = false
        guard search.history.remember(query) else { return }
        let book = self.book, kept = history.entries
        context.run({ try await book.saveSearchHistory(kept) }, for: self, failure: "could not keep the search history", level: .warning) { _, _ in }
    }

    /// ↑ (`delta` -1) and ↓ (+1) in the search field: an earlier or later search from the history, run at once;
    /// answers the text for the field (nil: nothing further that way).
    public func recallSearch(_ delta: Int) -> String? {
        guard let text = search.history.walk(delta, current: query) else { return nil }
        setQuery(text)
        return text
    }

    /// Reads the searches kept from earlier runs.
    public func loadSearchHistory() {
        let book = self.book
        context.run({ try await book.searchHistory() }, for: self, failure: "could not read the search history", level: .warning) { vm, kept in
            vm.search.history.load(kept)
        }
    }

    /// Runs the search for `text` now (called on every keystroke). A query that cannot be read (`status:maybe`)
    /// says why by the field and leaves the list as it was.
    public func setQuery(_ text: String) {
        let clean = TerminalSafeText.sanitize(text)
        guard clean != query else { return }
        search.query = clean
        cursor = 0
        _ = picks.cancelRange()       // a range marked on the old rows means nothing on the new ones
        do { _ = try ContactQuery(clean) } catch {
            search.problem = error.message
            return
        }
        search.problem = nil
        reload(keepingCursor: false)
    }

    public func clearSearch() {
        search.isSearching = false
        setQuery("")
    }

    public func setSort(_ newSort: ContactSort) {
        guard newSort != sort else { return }
        sort = newSort
        _ = picks.cancelRange()
        warmUpSearch()
        let keep = currentRow?.personId
        reload()
        if let keep, let ids = listing.ids, let at = ids.firstIndex(of: keep) { cursor = at + visibleSuggestions.count }
    }

    /// True when the list is ordered by last name.
    public var sortsByLastName: Bool { sort == .lastName }
    public func setSort(byLastName: Bool) { setSort(byLastName ? .lastName : .firstName) }

    /// `:sort NAME`: first or last; an order of another pane is refused with what Contacts take.
    public func setSort(named name: String) {
        switch name {
        case "first", "last": setSort(byLastName: name == "last")
        default: toasts.post("Contacts sort by first or last name (:sort first, :sort last); \(name) is an order of Deliveries",
                             level: .warning)
        }
    }

    public func toggleSort() { setSort(sort == .firstName ? .lastName : .firstName) }

    // MARK: invite

    /// Tells the person at the keyboard something (a toast).
    public func notify(_ text: String, level: ToastLevel = .warning) { toasts.post(text, level: level) }

    /// Who `I` invites and `x` deletes: the selection, else the person open in the detail or under the cursor (ids,
    /// in order).
    public func targets() -> [Int64] {
        if !selection.isEmpty { return selection.sorted() }
        return editTarget.map { [$0] } ?? []
    }

    // MARK: events

    /// Folds a service event: the ledger changed (rows shown and the detail are read again, kept on
    /// screen meanwhile), or the address book did (the listing is read again).
    public func handle(event: HeraldEvent) -> Bool {
        switch event {
        case .ledgerChanged:
            refreshRows()
            if let id = detail?.personId { readDetail(personId: id, reasons: detail?.reasons, opening: false) }
            return false
        case .contactsChanged:
            // The answers ahead are not worked out again here: while another process imports, the book
            // changes every second; after a change each one-character query is answered once, then kept.
            reload()
            loadBookStates()
            return false
        case .booksChanged:
            loadBookStates()
            return false
        case .repliesChanged(let change):
            return foldReplies(change)
        default:
            return false
        }
    }

    /// Reads how each address book stands (off the UI thread) for the title.
    public func loadBookStates() {
        guard let books else { return }
        effects.perform({ try await books.states() }, then: { [weak self] result in
            guard let self, case .success(let states) = result else { return }
            self.bookStatus = BookStatus(line: Self.bookLine(states), names: states.map(\.book.name))
        })
    }

    /// "books: personal ✓ 120 · work: 1 conflict to settle" (nil without books).
    nonisolated static func bookLine(_ states: [BookState]) -> String? {
        guard !states.isEmpty else { return nil }
        return "books: " + states.map { state in
            let name = TerminalSafeText.sanitize(state.book.name)
            if let problem = state.problem { return "\(name): \(TerminalSafeText.sanitize(problem))" }
            return state.syncedAt == nil ? "\(name) syncing…" : "\(name) ✓ \(state.people)"
        }.joined(separator: " · ")
    }

    /// What `c`/`y` copies: the number an invitation to the person under the cursor would go to (E.164).
    public var copyTarget: CopyTarget? {
        guard let person = currentRow?.person else { return nil }
        guard let number = person.smsPlan.numbers.first ?? person.phones.compactMap(\.number.e164).first else { return nil }
        return CopyTarget(text: number, what: "number of \(TerminalSafeText.sanitize(person.displayName))")
    }
}

extension ContactsViewModel: ContactFeedListener {
    public func listingInstalled(keep: Int64?, changed: Bool) {
        let offset = visibleSuggestions.count
        if let keep, let ids = listing.ids, let at = ids.firstIndex(of: keep) { cursor = at + offset }
        else if changed && listing.ids != nil { cursor = 0 }
        cursor = min(cursor, max(0, count - 1))
    }

    public func queryRefused(_ message: String) { search.problem = message }

    public func relist(keepingCursor: Bool) { reload(keepingCursor: keepingCursor) }

    public func suggestionsShifted(by shift: Int, from before: Int) {
        if cursor >= before && cursor > 0 { cursor = max(0, cursor + shift) }
    }

    public func suggestionsFailed(_ error: any Error) {
        toasts.post("suggestions unavailable: \(userMessage(for: error))", level: .warning)
    }
}
