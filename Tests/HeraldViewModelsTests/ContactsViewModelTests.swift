import Foundation
import HeraldCore
import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels

@Suite("Contacts view-model")
struct ContactsViewModelTests {
    private func make(_ ws: ShellWorkspace, effects: ShellEffects, toasts: ToastBoard) -> ContactsViewModel {
        ContactsViewModel(book: ws.book, invites: ws.workspace.invites, suggestions: ws.workspace.suggestions,
                          effects: effects.queue, toasts: toasts)
    }

    private func seed(_ ws: ShellWorkspace) throws {
        try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ivo", "Babić", "091 222 2222")
        try ws.add("Šime", "Anić", "091 333 3333")
        try ws.add("Zora", "Kovač", "091 444 4444", "098 555 5555")
        try ws.add("Marko", "Ćosić")
    }

    @Test func listsEveryoneInSectionsByFirstNameThenByLastName() async throws {
        let ws = try await ShellWorkspace()
        try seed(ws)
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        #expect(vm.count == 5)
        let rows = vm.rows(in: 0..<5)
        #expect(rows.map(\.name) == ["Ana Horvat", "Ivo Babić", "Marko Ćosić", "Šime Anić", "Zora Kovač"])
        #expect(rows.map(\.section) == ["A", "I", "M", "S", "Z"])
        #expect(rows.allSatisfy { $0.startsSection })
        vm.setSort(byLastName: true)
        #expect(vm.rows(in: 0..<5).map(\.name) == ["Šime Anić", "Ivo Babić", "Marko Ćosić", "Ana Horvat", "Zora Kovač"])
        #expect(vm.rows(in: 0..<2).map(\.section) == ["A", "B"])
    }

    @Test func searchNarrowsPerKeystrokeAndHighlightsMatches() async throws {
        let ws = try await ShellWorkspace()
        try seed(ws)
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        vm.beginSearch()
        vm.setQuery("a")
        let afterOne = vm.count
        vm.setQuery("an")
        #expect(vm.count < afterOne)
        #expect(Set(vm.rows(in: 0..<vm.count).map(\.name)) == ["Ana Horvat", "Šime Anić"])
        let ana = try #require(vm.rows(in: 0..<vm.count).first { $0.name == "Ana Horvat" })
        #expect(ana.matches == [0..<2])
        vm.setQuery("anic")   // diacritics folded: matches "Anić"
        #expect(vm.rows(in: 0..<vm.count).map(\.name) == ["Šime Anić"])
        #expect(vm.rows(in: 0..<1).first?.matches == [5..<9])
        vm.clearSearch()
        #expect(vm.count == 5 && !vm.isSearching)
    }

    @Test func selectionAllNoneInvertFollowTheShownRows() async throws {
        let ws = try await ShellWorkspace()
        try seed(ws)
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        vm.toggleSelection()
        #expect(vm.selection.count == 1)
        vm.toggleSelection()
        #expect(vm.selection.isEmpty)
        vm.setQuery("an")
        vm.selectAll()
        #expect(vm.selection.count == 2)
        vm.clearSearch()
        vm.invertSelection()
        #expect(vm.selection.count == 3)
        vm.selectNone()
        #expect(vm.selection.isEmpty)
    }

    @Test func invitingTheSelectionAsksFirstThenSendsAndShowsTheNewState() async throws {
        let ws = try await ShellWorkspace()
        try seed(ws)
        let effects = ShellEffects()
        let toasts = ToastBoard(clock: ws.clock)
        let vm = make(ws, effects: effects, toasts: toasts)
        vm.moveCursor(to: 0)                 // Ana Horvat
        vm.toggleSelection()
        vm.moveCursor(to: 4)                 // Zora Kovač, two numbers
        vm.toggleSelection()
        vm.requestInvite()
        let confirmation = try #require(vm.confirmation)
        #expect(confirmation.personIds.count == 2)
        #expect(confirmation.numberCount == 3)
        #expect(try ws.workspace.ledger.bulks().isEmpty)     // nothing sent before the yes
        vm.confirmInvite()
        #expect(vm.isInviting)
        await effects.settle()
        #expect(!vm.isInviting && vm.selection.isEmpty)
        #expect(toasts.notes.last?.text.hasPrefix("invited 3 numbers (bulk ") == true)
        #expect(try ws.workspace.ledger.bulks().count == 1)
        let rows = vm.rows(in: 0..<5)
        #expect(rows[0].badge.state != .notInvited)
        #expect(rows[1].badge.text == "not invited")
    }

    @Test func aPersonWithOneOfTwoNumbersInvitedShowsTheCount() async throws {
        let ws = try await ShellWorkspace()
        try ws.add("Zora", "Kovač", "091 444 4444", "098 555 5555")
        _ = try await ws.workspace.invites.invite(numbers: ["+385914444444"])
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        let badge = try #require(vm.rows(in: 0..<1).first?.badge)
        #expect(badge.count == 1 && badge.total == 2)
        #expect(badge.text.hasSuffix(" 1/2"))
    }

    @Test func nothingToInviteSaysWhatToDo() async throws {
        let ws = try await ShellWorkspace()
        let toasts = ToastBoard(clock: ws.clock)
        let vm = make(ws, effects: ShellEffects(), toasts: toasts)
        #expect(vm.isAddressBookEmpty)
        vm.requestInvite()
        #expect(vm.confirmation == nil)
        #expect(toasts.notes.last?.level == .warning)
    }

    @Test func suggestionsGoOnTopAndAreRecordedAsSeen() async throws {
        let ws = try await ShellWorkspace()
        try seed(ws)
        let effects = ShellEffects()
        let vm = make(ws, effects: effects, toasts: ToastBoard(clock: ws.clock))
        vm.suggestionCount = 2
        vm.loadSuggestions()
        await effects.settle()
        #expect(vm.visibleSuggestions.count == 2)
        #expect(vm.count == 7)
        let top = vm.rows(in: 0..<2)
        #expect(top.allSatisfy { $0.section == nil && $0.reasons != nil })
        let seen = try SuggestionHistoryStore(database: ws.workspace.database).seenIDs()
        #expect(Set(top.compactMap(\.personId)) == seen)
        vm.setQuery("zora")                  // a search hides the block
        #expect(vm.visibleSuggestions.isEmpty && vm.count == 1)
    }

    @Test func detailShowsEveryNumberWithTypeStatusHistoryAndBulk() async throws {
        let ws = try await ShellWorkspace()
        try ws.add("Zora", "Kovač", "091 444 4444", "01 4555 555")
        let sent = try await ws.workspace.invites.invite(numbers: ["+385914444444"])
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        vm.openDetail()
        let detail = try #require(vm.detail)
        #expect(detail.numbers.map(\.e164) == ["+385914444444", "+38514555555"])
        #expect(detail.numbers[0].kind == "mobile")
        #expect(detail.numbers[0].history.count == 1)
        #expect(detail.numbers[1].status == nil)
        let bulk = try #require(sent.bulkId)
        #expect(detail.bulkIds == [bulk])
        #expect(detail.lines.contains { $0.contains("Not among the current suggestions") })
    }

    @Test func hostileNamesAreSanitised() async throws {
        let ws = try await ShellWorkspace()
        try ws.add("Evil\u{1B}[2J\u{1B}]0;owned\u{07}", "Name", "091 111 1111")
        let vm = make(ws, effects: ShellEffects(), toasts: ToastBoard(clock: ws.clock))
        let name = try #require(vm.rows(in: 0..<1).first?.name)
        #expect(!name.contains("\u{1B}") && !name.contains("\u{07}"))
    }
}
