import Foundation
import HeraldCore
import HeraldServices
import HeraldStore

/// The invitation about to be sent, waiting for the user's yes.
public struct InviteConfirmation: Sendable, Hashable {
    public let personIds: [Int64]
    /// Numbers that will be tried (nil when too many people to count up front).
    public let numberCount: Int?
    /// The first names, for the dialog.
    public let sampleNames: [String]
}

/// The Contacts pane's state: the Suggested block on top of the A–Z list, incremental search,
/// sort, selection, the detail of one person and the invite flow. Rows are loaded from the
/// `ContactBook` only for the range being shown, so 100,000 people cost a screenful.
public final class ContactsViewModel {
    public let book: ContactBook
    private let invites: InviteService
    private let suggestionService: SuggestionService?
    private let effects: EffectQueue
    private let toasts: ToastBoard

    public private(set) var sort: ContactSort = .firstName
    public private(set) var query = ""
    /// True while the search field has the keyboard.
    public private(set) var isSearching = false
    public private(set) var listing: ContactListing
    /// The Suggested block, shown above the list when there is no search.
    public private(set) var suggested: [Suggestion] = []
    public private(set) var cursor = 0
    public private(set) var selection = Set<Int64>()
    public private(set) var detail: PersonDetailView?
    public private(set) var confirmation: InviteConfirmation?
    public private(set) var isInviting = false
    /// A problem reading the store, shown in place of the list.
    public private(set) var loadError: String?
    /// How many suggestions to ask for.
    public var suggestionCount = 5
    private var cache: [Int: ContactRow] = [:]

    public init(book: ContactBook, invites: InviteService, suggestions: SuggestionService?, effects: EffectQueue,
                toasts: ToastBoard) {
        self.book = book
        self.invites = invites
        suggestionService = suggestions
        self.effects = effects
        self.toasts = toasts
        listing = ContactListing(query: "", sort: .firstName, total: 0, ids: nil)
        reload()
    }

    // MARK: the list

    /// Rows in the list: the suggestions (without a search) then the people.
    public var count: Int { visibleSuggestions.count + listing.total }
    /// The suggestions shown now (none during a search).
    public var visibleSuggestions: [Suggestion] { query.isEmpty ? suggested : [] }
    /// True when the address book has nobody in it.
    public var isAddressBookEmpty: Bool { query.isEmpty && listing.total == 0 && loadError == nil }

    /// The rows of `range` (clamped); reads from the store only rows not already loaded.
    public func rows(in range: Range<Int>) -> [ContactRow] {
        let lower = max(0, range.lowerBound), upper = min(count, range.upperBound)
        guard lower < upper else { return [] }
        if (lower..<upper).contains(where: { cache[$0] == nil }) { load(lower..<upper) }
        return (lower..<upper).compactMap { cache[$0] }
    }

    /// The row under the cursor.
    public var currentRow: ContactRow? { rows(in: cursor..<(cursor + 1)).first }

    private func load(_ range: Range<Int>) {
        if cache.count > 4_000 { cache = [:] }
        let shown = visibleSuggestions
        var previousSection: String?
        for index in range where index < shown.count {
            let suggestion = shown[index]
            let summary = (try? book.summary(for: suggestion.person)) ?? PersonInvitationSummary(person: suggestion.person, invitations: [])
            cache[index] = makeRow(suggestion.person, summary, section: nil, starts: false, reasons: suggestion.reasons)
        }
        let start = max(range.lowerBound, shown.count) - shown.count
        let end = range.upperBound - shown.count
        guard start < end else { return }
        let fetchFrom = max(0, start - 1)
        do {
            let entries = try book.entries(listing, range: fetchFrom..<end)
            for (offset, entry) in entries.enumerated() {
                let index = fetchFrom + offset
                let section = Self.section(of: entry.person, sort: sort)
                defer { previousSection = section }
                guard index >= start else { continue }
                let starts = index == 0 || previousSection != section
                cache[index + shown.count] = makeRow(entry.person, entry.summary, section: section, starts: starts, reasons: nil)
            }
            loadError = nil
        } catch {
            loadError = "cannot read the contacts: \(error)"
        }
    }

    private func makeRow(_ person: Person, _ summary: PersonInvitationSummary, section: String?, starts: Bool,
                         reasons: [String]?) -> ContactRow {
        let name = TerminalSafeText.sanitize(person.displayName)
        let number = person.phones.first.map { $0.number.e164 ?? $0.number.raw } ?? ""
        return ContactRow(person: person, summary: summary, badge: InvitationBadge(summary: summary, hasPhones: !person.phones.isEmpty), section: section,
                          startsSection: starts, reasons: reasons, name: name,
                          matches: SearchHighlight.ranges(of: query, in: name), firstNumber: TerminalSafeText.sanitize(number))
    }

    /// The A–Z section of a person in `sort` order: a capital letter, or "#" for anything else.
    public static func section(of person: Person, sort: ContactSort) -> String {
        let first = person.firstName.trimmingCharacters(in: .whitespaces)
        let last = person.lastName.trimmingCharacters(in: .whitespaces)
        var key = sort == .firstName ? (first.isEmpty ? last : first) : (last.isEmpty ? first : last)
        if key.isEmpty { key = person.displayName }
        guard let c = key.first else { return "#" }
        let folded = String(c).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).uppercased()
        guard let letter = folded.first, letter.isASCII, letter.isLetter else { return "#" }
        return String(letter)
    }

    /// Reads the list again (after a sort or search change, or when the ledger changed).
    public func reload() {
        do {
            listing = try book.listing(query: query, sort: sort)
            loadError = nil
        } catch {
            listing = ContactListing(query: query, sort: sort, total: 0, ids: nil)
            loadError = "cannot read the contacts: \(error)"
        }
        cache = [:]
        cursor = min(cursor, max(0, count - 1))
    }

    /// Forgets loaded rows (their invitation states changed) without moving.
    public func invalidateRows() { cache = [:] }

    // MARK: cursor

    public func moveCursor(to index: Int) { cursor = max(0, min(index, count - 1)) }
    public func moveCursor(by delta: Int) { moveCursor(to: cursor + delta) }

    // MARK: suggestions

    /// Builds the search index in the background, so the first keystroke of a search is quick.
    public func warmUpSearch() {
        let book = self.book
        effects.perform({ try book.warmUp() }, then: { _ in })
    }

    /// Asks the suggestion service for the Suggested block; the people shown are recorded as seen.
    public func loadSuggestions() {
        guard let service = suggestionService else { return }
        let wanted = suggestionCount
        effects.perform({ () async throws -> [Suggestion] in
            let found = try await service.suggestions(count: wanted)
            try await service.markShown(found)
            return found
        }, then: { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let found):
                let hadSuggestions = !self.visibleSuggestions.isEmpty
                self.suggested = found
                if self.query.isEmpty && !hadSuggestions && self.cursor > 0 { self.cursor += found.count }
                self.cache = [:]
            case .failure(let error):
                self.toasts.post("suggestions unavailable: \(error)", level: .warning)
            }
        })
    }

    // MARK: search and sort

    public func beginSearch() { isSearching = true }

    /// Leaves the search field; the results stay (Esc again clears them).
    public func endSearch() { isSearching = false }

    /// Runs the search for `text` now (called on every keystroke).
    public func setQuery(_ text: String) {
        let clean = TerminalSafeText.sanitize(text)
        guard clean != query else { return }
        query = clean
        cursor = 0
        reload()
    }

    public func clearSearch() {
        isSearching = false
        setQuery("")
    }

    public func setSort(_ newSort: ContactSort) {
        guard newSort != sort else { return }
        sort = newSort
        let keep = currentRow?.personId
        reload()
        if let keep, let ids = listing.ids, let at = ids.firstIndex(of: keep) { cursor = at + visibleSuggestions.count }
    }

    /// True when the list is ordered by last name.
    public var sortsByLastName: Bool { sort == .lastName }
    public func setSort(byLastName: Bool) { setSort(byLastName ? .lastName : .firstName) }

    public func toggleSort() { setSort(sort == .firstName ? .lastName : .firstName) }

    // MARK: selection

    public func toggleSelection() {
        guard let id = currentRow?.personId else { return }
        if selection.remove(id) == nil { selection.insert(id) }
    }

    /// Selects everyone the list shows (every match of a search).
    public func selectAll() {
        do { selection.formUnion(try book.ids(of: listing)) } catch { toasts.post("\(error)", level: .error) }
    }

    public func selectNone() { selection.removeAll() }

    /// Selects those shown that were not selected and unselects the others.
    public func invertSelection() {
        do {
            let shown = Set(try book.ids(of: listing))
            selection = shown.subtracting(selection).union(selection.subtracting(shown))
        } catch {
            toasts.post("\(error)", level: .error)
        }
    }

    // MARK: detail

    public func openDetail() {
        guard let row = currentRow, let id = row.personId else { return }
        do {
            guard let found = try book.detail(personId: id) else {
                toasts.post("this person is no longer in the address book", level: .warning)
                reload()
                return
            }
            let reasons = suggested.first { $0.person.id == id }?.reasons
            detail = PersonDetailView(detail: found, reasons: reasons)
        } catch {
            toasts.post("cannot read this person: \(error)", level: .error)
        }
    }

    public func closeDetail() { detail = nil }

    // MARK: invite

    /// Asks to invite the selection, or the person under the cursor when nothing is selected.
    public func requestInvite() {
        guard !isInviting else { toasts.post("an invitation is already being sent", level: .warning); return }
        var ids = Array(selection)
        if ids.isEmpty, let id = (detail?.personId ?? currentRow?.personId) { ids = [id] }
        guard !ids.isEmpty else { toasts.post("nobody to invite: select people with space", level: .warning); return }
        var numbers: Int?
        var names: [String] = []
        if ids.count <= 2_000, let people = try? book.people(ids: ids) {
            numbers = people.reduce(0) { $0 + $1.invitableNumbers.count }
            names = people.prefix(3).map { TerminalSafeText.sanitize($0.displayName) }
        } else if let people = try? book.people(ids: Array(ids.prefix(3))) {
            names = people.map { TerminalSafeText.sanitize($0.displayName) }
        }
        confirmation = InviteConfirmation(personIds: ids, numberCount: numbers, sampleNames: names)
    }

    public func cancelInvite() { confirmation = nil }

    /// Sends the confirmed invitation through the invite service; a toast tells the result.
    public func confirmInvite() {
        guard let confirmation, !isInviting else { return }
        self.confirmation = nil
        isInviting = true
        let book = self.book, invites = self.invites, ids = confirmation.personIds
        effects.perform({ () async throws -> InviteResult in
            let people = try book.people(ids: ids)
            return try await invites.invite(people: people)
        }, then: { [weak self] result in
            guard let self else { return }
            self.isInviting = false
            switch result {
            case .success(let sent):
                self.toasts.post(Self.describe(sent), level: sent.recipients.isEmpty ? .warning : .success)
                self.selection.subtract(ids)
                self.cache = [:]
            case .failure(let error):
                let message = (error as? any UserFacingError)?.userMessage ?? "\(error)"
                self.toasts.post("invitation failed: \(message)", level: .error)
                self.cache = [:]
            }
        })
    }

    static func describe(_ result: InviteResult) -> String {
        let sent = result.recipients.filter { $0.reason == nil }.count
        var text = sent == 1 ? "invited 1 number" : "invited \(sent) numbers"
        if let bulk = result.bulkId { text += " (bulk \(bulk.prefix(8)))" }
        if !result.skipped.isEmpty {
            text += "; \(result.skipped.count) skipped"
            if let first = result.skipped.first { text += ": \(first.reason)" }
        }
        return text
    }

    // MARK: events

    /// Folds a service event: a delivery change or a new bulk changes invitation states shown.
    public func handle(event: HeraldEvent) -> Bool {
        switch event {
        case .deliveryChanged, .bulkSent:
            cache = [:]
            if let id = detail?.personId, let found = try? book.detail(personId: id) {
                detail = PersonDetailView(detail: found, reasons: detail?.reasons)
            }
            return true
        default:
            return false
        }
    }
}
