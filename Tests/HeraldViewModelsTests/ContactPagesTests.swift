import HeraldCore
import HeraldServices
import Testing
@testable import HeraldViewModels

/// Paging the contacts list without a workspace: what a window asks to read, what waits for the read in flight,
/// and which answers still count.
@Suite struct ContactPagesTests {
    static func entries(_ names: [String]) -> [ContactEntry] {
        names.map { ContactEntry(person: Person(firstName: $0), summary: PersonInvitationSummary(person: Person(firstName: $0), invitations: [])) }
    }

    static func row(_ entry: ContactEntry, _ section: String?, _ starts: Bool) -> ContactRow {
        ContactsViewModel.makeRow(entry.person, entry.summary, number: entry.number, section: section, starts: starts, reasons: nil, query: "")
    }

    @Test func aWindowReadsAheadOnlyWhatIsMissingAndASecondWindowWaitsForTheFirst() {
        var pages = ContactPages()
        // Nothing read yet: the window and a few rows ahead (the first screen of a keystroke comes quickly).
        let first = pages.plan(10..<20, suggestions: 0, total: 1000, readAhead: 60, firstReadAhead: 5)
        #expect(first == 5..<25)
        // A read is in flight: another window waits for it, one inside it asks for nothing.
        let inside = pages.plan(12..<18, suggestions: 0, total: 1000, readAhead: 60, firstReadAhead: 5)
        #expect(inside == nil && pages.wanted == nil)
        let elsewhere = pages.plan(40..<50, suggestions: 0, total: 1000, readAhead: 60, firstReadAhead: 5)
        #expect(elsewhere == nil && pages.wanted == 40..<50)
        let generation = pages.generation
        let counted = pages.finishRead(generation: generation)
        #expect(counted)
        pages.store(Self.entries((0..<20).map { "P\($0)" }), from: 5, keepingFrom: 5, offset: 0, section: { _ in "P" }, row: Self.row)
        // Rows already read at either end are not read again.
        let next = pages.plan(10..<30, suggestions: 0, total: 1000, readAhead: 2, firstReadAhead: 2)
        #expect(next == 25..<32)
    }

    @Test func anAnswerForAnOlderListingIsDroppedAndARefreshWaitsForTheReadInFlight() {
        var pages = ContactPages()
        let old = pages.startListing()
        _ = pages.plan(0..<10, suggestions: 0, total: 100, readAhead: 0, firstReadAhead: 0)
        let new = pages.startListing()
        let stale = pages.finishRead(generation: old)
        #expect(!stale)
        #expect(pages.reading == nil && new == old + 1)
        pages.shown = 0..<10
        _ = pages.plan(0..<10, suggestions: 0, total: 100, readAhead: 0, firstReadAhead: 0)
        let waiting = pages.planRefresh(suggestions: 0, total: 100)
        #expect(waiting == nil && pages.refreshAfterRead)
        let current = pages.finishRead(generation: new)
        #expect(current)
        let refresh = pages.planRefresh(suggestions: 2, total: 100)
        #expect(refresh == 0..<8)
    }

    @Test func rowsKnowWhereASectionStartsAndMoveWithTheSuggestions() {
        var pages = ContactPages()
        pages.store(Self.entries(["Ana", "Ante", "Ivo"]), from: 4, keepingFrom: 5, offset: 1, section: { String($0.firstName.prefix(1)) }, row: Self.row)
        #expect(pages[5] == nil)                    // read only to know its section
        #expect(pages[6]?.startsSection == false && pages[7]?.startsSection == true)
        pages.shift(by: 2)
        #expect(pages[8]?.name == "Ante" && pages[6] == nil)
    }
}
