import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels

/// Every test drives the view-model from the UI side of a `UIThreadGuard` and ends by checking
/// that the UI side never touched the store: reads go through effects only.
@Suite("Contacts view-model")
struct ContactsViewModelTests {
    /// A view-model built on the UI side, its effects run on the UI side, the first listing read.
    private func make(_ ws: WorkspaceHarness, toasts: ToastBoard? = nil) async -> (ContactsViewModel, EffectPump, UISide) {
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = ui {
            ContactsViewModel(book: ws.book, suggestions: ws.workspace.suggestions,
                              context: effects.context(toasts: toasts ?? ToastBoard(clock: ws.clock)))
        }
        await effects.settle()
        return (vm, effects, ui)
    }

    private func seed(_ ws: WorkspaceHarness) throws {
        try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ivo", "Babić", "091 222 2222")
        try ws.add("Šime", "Anić", "091 333 3333")
        try ws.add("Zora", "Kovač", "091 444 4444", "098 555 5555")
        try ws.add("Marko", "Ćosić")
    }

    /// Đ sorts under D as Š does under S (the folding the store sorts by), in its section, by first and by last name.
    @Test func đuroSortsUnderDBetweenDarioAndEva() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Eva", "Đapić", "091 111 1111")
        try ws.add("Đuro", "Zorić", "091 222 2222")
        try ws.add("Dario", "Dujmović", "091 333 3333")
        try ws.add("Zvonko", "Erceg", "091 444 4444")
        let (vm, effects, ui) = await make(ws)
        let rows = await ui.rows(vm, 0..<4, effects)
        #expect(rows.map(\.name) == ["Dario Dujmović", "Đuro Zorić", "Eva Đapić", "Zvonko Erceg"])
        #expect(rows.map(\.section) == ["D", "D", "E", "Z"])
        ui { vm.setSort(byLastName: true) }
        await effects.settle()
        let byLast = await ui.rows(vm, 0..<4, effects)
        #expect(byLast.map(\.name) == ["Eva Đapić", "Dario Dujmović", "Zvonko Erceg", "Đuro Zorić"])
        #expect(byLast.map(\.section) == ["D", "D", "E", "Z"])
    }

    @Test func listsEveryoneInSectionsByFirstNameThenByLastName() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        #expect(vm.count == 5)
        let rows = await ui.rows(vm, 0..<5, effects)
        #expect(rows.map(\.name) == ["Ana Horvat", "Ivo Babić", "Marko Ćosić", "Šime Anić", "Zora Kovač"])
        #expect(rows.map(\.section) == ["A", "I", "M", "S", "Z"])
        #expect(rows.allSatisfy { $0.startsSection })
        ui { vm.setSort(byLastName: true) }
        await effects.settle()
        #expect(await ui.rows(vm, 0..<5, effects).map(\.name) == ["Šime Anić", "Ivo Babić", "Marko Ćosić", "Ana Horvat", "Zora Kovač"])
        #expect(await ui.rows(vm, 0..<2, effects).map(\.section) == ["A", "B"])
        #expect(ui.violations.isEmpty)
    }

    @Test func aRowNotReadYetIsAPlaceholderUntilItsReadArrives() async throws {
        let ws = try await WorkspaceHarness.screens()
        for i in 0..<300 { try ws.add("Person", String(format: "%03d", i), "091 \(String(format: "%03d", i)) 0000") }
        let (vm, effects, ui) = await make(ws)
        vm.readAhead = 10
        #expect(ui { vm.rows(in: 250..<260) }.allSatisfy { $0 == nil } && effects.queue.inFlight == 0)  // reading rows starts nothing
        let far = ui { vm.show(250..<260); return vm.rows(in: 250..<260) }
        #expect(effects.queue.inFlight == 1)
        #expect(far.count == 10 && far.allSatisfy { $0 == nil })      // nothing read there yet: placeholders, no query
        await effects.settle()
        #expect(ui { vm.rows(in: 250..<260) }.allSatisfy { $0 != nil })
        #expect(ui.violations.isEmpty)
    }

    @Test func searchNarrowsPerKeystrokeAndHighlightsMatches() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        ui { vm.beginSearch(); vm.setQuery("a") }
        await effects.settle()
        let afterOne = vm.count
        ui { vm.setQuery("an") }
        await effects.settle()
        #expect(vm.count < afterOne)
        #expect(Set(await ui.rows(vm, 0..<vm.count, effects).map(\.name)) == ["Ana Horvat", "Šime Anić"])
        let ana = try #require(await ui.rows(vm, 0..<vm.count, effects).first { $0.name == "Ana Horvat" })
        #expect(ana.matches == [0..<2])
        ui { vm.setQuery("anic") }    // diacritics folded: matches "Anić"
        await effects.settle()
        #expect(await ui.rows(vm, 0..<vm.count, effects).map(\.name) == ["Šime Anić"])
        #expect(await ui.rows(vm, 0..<1, effects).first?.matches == [5..<9])
        ui { vm.clearSearch() }
        await effects.settle()
        #expect(vm.count == 5 && !vm.isSearching)
        #expect(ui.violations.isEmpty)
    }

    @Test func keystrokesFasterThanTheSearchShowTheLastQuery() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        ui { vm.beginSearch(); for text in ["z", "zo", "zor", "zora"] { vm.setQuery(text) } }
        await effects.settle()
        #expect(vm.listing.query == "zora" && vm.count == 1)
        #expect(await ui.rows(vm, 0..<1, effects).map(\.name) == ["Zora Kovač"])
        #expect(ui.violations.isEmpty)
    }

    @Test func selectionAllNoneInvertFollowTheShownRowsAndCanBeRestored() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        _ = await ui.rows(vm, 0..<5, effects)
        ui { vm.toggleSelection() }
        #expect(vm.selection.count == 1)
        ui { vm.toggleSelection() }
        #expect(vm.selection.isEmpty)
        ui { vm.setQuery("an") }
        await effects.settle()
        ui { vm.selectAll() }
        #expect(vm.selection.count == 2)
        ui { vm.clearSearch() }
        await effects.settle()
        ui { vm.invertSelection() }
        await effects.settle()
        #expect(vm.selection.count == 3)
        ui { vm.selectNone() }
        #expect(vm.selection.isEmpty)
        ui { vm.restoreSelection() }
        #expect(vm.selection.count == 3)
        #expect(ui.violations.isEmpty)
    }

    @Test func vMarksARangeThatASecondVSelectsAndEscCancels() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        let rows = await ui.rows(vm, 0..<5, effects)
        ui { vm.moveCursor(to: 3); vm.toggleRange(); vm.moveCursor(to: 1) }
        #expect((0..<5).map { vm.isInRange($0) } == [false, true, true, true, false])
        #expect(vm.selection.isEmpty)                 // nothing selected while the range is marked
        ui { vm.toggleRange() }
        await effects.settle()
        #expect(vm.selection == Set(rows[1...3].compactMap(\.personId)))
        #expect(vm.rangeAnchor == nil)
        ui { vm.moveCursor(to: 0); vm.toggleRange(); vm.moveCursor(to: 4) }
        #expect(ui { vm.cancelRange() })
        await effects.settle()
        #expect(vm.selection.count == 3)              // cancelled: the earlier range stays, nothing added
        ui { vm.restoreSelection() }
        #expect(vm.selection.isEmpty)                 // u undoes the range
        #expect(ui.violations.isEmpty)
    }

    @Test func selectByStatePicksNotInvitedPeopleWithAnSMSNumberOrThoseInAState() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)                                  // Marko Ćosić has no number at all
        let fax = LabeledPhone(label: "fax", number: ws.workspace.parser.parse("01 4666 666"))
        try ws.workspace.contacts.insert(Person(firstName: "Ivo", lastName: "Fax", phones: [fax]))
        _ = try await ws.workspace.invites.invite(numbers: ["+385911111111"])        // Ana: pending
        let toasts = ToastBoard(clock: ws.clock)
        let (vm, effects, ui) = await make(ws, toasts: toasts)
        let rows = await ui.rows(vm, 0..<6, effects)
        func ids(_ names: [String]) -> Set<Int64> { Set(rows.filter { names.contains($0.name) }.compactMap(\.personId)) }
        ui { vm.select(.notInvited) }
        await effects.settle()
        #expect(vm.selection == ids(["Ivo Babić", "Šime Anić", "Zora Kovač"]))      // not Ana (pending), Marko or Ivo Fax
        #expect(toasts.notes.last?.text.hasPrefix("3 people not invited with a number that takes SMS selected") == true)
        ui { vm.selectNone(); vm.select(.pending) }
        await effects.settle()
        #expect(vm.selection == ids(["Ana Horvat"]))
        ui { vm.selectNone(); vm.select(.failed) }
        await effects.settle()
        #expect(vm.selection.isEmpty)
        #expect(toasts.notes.last?.text == "nobody shown is failed")
        #expect(StateSelection(name: "Not invited") == .notInvited && StateSelection(name: "impossible") == .failed)
        #expect(ui.violations.isEmpty)
    }

    @Test func iInvitesTheSelectionElseThePersonUnderTheCursor() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        let rows = await ui.rows(vm, 0..<5, effects)
        ui { vm.moveCursor(to: 2) }
        #expect(ui { vm.targets() } == [try #require(rows[2].personId)])
        ui {
            vm.moveCursor(to: 4)                 // Zora Kovač
            vm.toggleSelection()
            vm.moveCursor(to: 0)                 // Ana Horvat
            vm.toggleSelection()
        }
        #expect(ui { vm.targets() } == [rows[0].personId, rows[4].personId].compactMap { $0 }.sorted())
        #expect(ui.violations.isEmpty)
    }

    @Test func aPersonWithOneOfTwoNumbersInvitedShowsTheCount() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Zora", "Kovač", "091 444 4444", "098 555 5555")
        _ = try await ws.workspace.invites.invite(numbers: ["+385914444444"])
        let (vm, effects, ui) = await make(ws)
        let badge = try #require(await ui.rows(vm, 0..<1, effects).first?.badge)
        #expect(badge.count == 1 && badge.total == 2)
        #expect(badge.text.hasSuffix(" 1/2"))
    }

    @Test func aRowShowsTheNumberAnInvitationWouldGoToFormattedForReading() async throws {
        let ws = try await WorkspaceHarness.screens()
        let landline = LabeledPhone(label: "work", number: ws.workspace.parser.parse("01 4555 555"))
        let fax = LabeledPhone(label: "fax", number: ws.workspace.parser.parse("01 4666 666"))
        let mobile = LabeledPhone(label: "cell", number: ws.workspace.parser.parse("091 444 4444"))
        try ws.workspace.contacts.insert(Person(firstName: "Zora", lastName: "Kovač", phones: [landline, fax, mobile]))
        try ws.workspace.contacts.insert(Person(firstName: "Ivo", lastName: "Fax", phones: [fax]))
        let (vm, effects, ui) = await make(ws)
        let rows = await ui.rows(vm, 0..<2, effects)
        #expect(rows.map(\.shownNumber) == ["+385 1 4666 666", "+385 91 444 4444"])   // Ivo: no SMS number, his own shown
    }

    @Test func nothingToInviteSaysWhatToDo() async throws {
        let ws = try await WorkspaceHarness.screens()
        let toasts = ToastBoard(clock: ws.clock)
        let (vm, _, ui) = await make(ws, toasts: toasts)
        #expect(vm.isAddressBookEmpty)
        #expect(ui { vm.targets() }.isEmpty)
    }

    @Test func peopleImportedByAnotherProcessAppearOnTheFeedsEvent() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        _ = try await ws.workspace.feed.check()
        // Another process on the same folder stores a person.
        let other = try HeraldDatabase.open(inDirectory: ws.folder)
        _ = try ContactStore(database: other).insert(Person(firstName: "Nova", lastName: "Osoba", phones: []))
        try await ws.workspace.feed.check()
        #expect(vm.count == 5)
        // The feed published `.contactsChanged`; the pane reads its listing again.
        _ = ui { vm.handle(event: .contactsChanged(generation: 0)) }
        await effects.settle()
        #expect(vm.count == 6)
        #expect(await ui.rows(vm, 0..<6, effects).map(\.name).contains("Nova Osoba"))
        #expect(ui.violations.isEmpty)
    }

    @Test func suggestionsGoOnTopAndAreRecordedAsSeen() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        let (vm, effects, ui) = await make(ws)
        vm.suggestionCount = 2
        ui { vm.loadSuggestions() }
        await effects.settle()
        #expect(vm.visibleSuggestions.count == 2)
        #expect(vm.count == 7)
        let top = await ui.rows(vm, 0..<2, effects)
        #expect(top.count == 2 && top.allSatisfy { $0.section == nil && $0.reasons != nil })
        let seen = try SuggestionHistoryStore(database: ws.workspace.database).seenIDs()
        #expect(Set(top.compactMap(\.personId)) == seen)
        #expect(await ui.rows(vm, 2..<7, effects).count == 5)
        ui { vm.setQuery("zora") }                  // a search hides the block
        await effects.settle()
        #expect(vm.visibleSuggestions.isEmpty && vm.count == 1)
        #expect(ui.violations.isEmpty)
    }

    @Test func detailShowsEveryNumberWithTypeStatusHistoryAndBulk() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Zora", "Kovač", "091 444 4444", "01 4555 555")
        let sent = try await ws.workspace.invites.invite(numbers: ["+385914444444"])
        let (vm, effects, ui) = await make(ws)
        _ = await ui.rows(vm, 0..<1, effects)
        ui { vm.openDetail() }
        await effects.settle()
        let detail = try #require(vm.detail)
        #expect(detail.numbers.map(\.e164) == ["+385914444444", "+38514555555"])
        #expect(detail.numbers[0].kind == "mobile")
        #expect(detail.numbers[0].history.count == 1)
        #expect(detail.numbers[1].status == nil)
        let bulk = try #require(sent.bulkId)
        #expect(detail.bulkIds == [bulk])
        #expect(detail.lines.contains { $0.contains("Not among the current suggestions") })
        #expect(ui.violations.isEmpty)
    }

    @Test func theDetailPicksTheNumberInvitationsGoToAndSaysWhyOthersAreSkipped() async throws {
        let ws = try await WorkspaceHarness.screens()
        let parse = ws.workspace.parser.parse
        try ws.workspace.contacts.insert(Person(firstName: "Zora", lastName: "Kovač", phones: [
            LabeledPhone(label: "cell", number: parse("091 444 4444")), LabeledPhone(label: "work fax", number: parse("01 4666 666")),
            LabeledPhone(label: "other", number: parse("098 555 5555")),
        ]))
        let toasts = ToastBoard(clock: ws.clock)
        let (vm, effects, ui) = await make(ws, toasts: toasts)
        _ = await ui.rows(vm, 0..<1, effects)
        ui { vm.openDetail() }
        await effects.settle()
        var detail = try #require(vm.detail)
        #expect(detail.numbers.map(\.invited) == [true, false, false])              // one SMS per person: the first mobile
        #expect(detail.numbers[2].skipped?.hasPrefix("one SMS per person") == true)
        #expect(detail.numbers[1].skipped == "labelled work fax: a fax cannot receive SMS")
        #expect(detail.lines.contains("      ✗ not invited: labelled work fax: a fax cannot receive SMS"))
        // The fax cannot be chosen, and says why.
        ui { vm.moveDetailNumber(by: 1); vm.chooseDetailNumber() }
        #expect(toasts.notes.last?.text == "+38514666666 cannot be chosen: labelled work fax: a fax cannot receive SMS")
        // The second mobile is chosen: only it is invited, here, in the row and in what I sends to.
        ui { vm.moveDetailNumber(by: 1); vm.chooseDetailNumber() }
        await effects.settle()
        detail = try #require(vm.detail)
        #expect(detail.numbers.map(\.invited) == [false, false, true])
        #expect(detail.numbers[0].skipped == "not the number chosen for invitations")
        #expect(detail.numbers[2].chosen)
        #expect(await ui.rows(vm, 0..<1, effects).first?.shownNumber == "+385 98 555 5555")
        let personId = try #require(detail.personId)
        let stored = try #require(try ws.workspace.contacts.person(id: personId))
        #expect(stored.invitableNumbers == ["+385985555555"])
        // Space on the chosen number lets Herald choose again.
        ui { vm.chooseDetailNumber() }
        await effects.settle()
        #expect(vm.detail?.numbers.map(\.invited) == [true, false, false])
        #expect(ui.violations.isEmpty)
    }

    @Test func aFailedReadSaysSoInsteadOfAnEmptyBook() async throws {
        let ws = try await WorkspaceHarness.screens()
        try seed(ws)
        try ws.workspace.database.write { db in try db.execute(sql: "DROP TABLE email") }   // rows can no longer be read
        let (vm, _, _) = await make(ws)
        #expect(vm.loadError?.hasPrefix("could not read the contacts") == true)
        #expect(!vm.isAddressBookEmpty)
    }

    @Test func hostileNamesAreSanitised() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Evil\u{1B}[2J\u{1B}]0;owned\u{07}", "Name", "091 111 1111")
        let (vm, effects, ui) = await make(ws)
        let name = try #require(await ui.rows(vm, 0..<1, effects).first?.name)
        #expect(!name.contains("\u{1B}") && !name.contains("\u{07}"))
    }
}
