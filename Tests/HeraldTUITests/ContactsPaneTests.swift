import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels
import HeraldEmbedded

/// The Contacts pane drawn on the in-memory canvas.
struct ContactsPaneTests {
    final class Fixture {
        let ws: WorkspaceHarness
        let effects = EffectPump()
        let toasts = ToastBoard()
        private(set) var pane: ContactsPane!

        init() async throws { ws = try await WorkspaceHarness.screens() }

        var workspace: Workspace { ws.workspace }

        func add(_ first: String, _ last: String, _ numbers: String...) throws {
            let phones = numbers.map { LabeledPhone(label: "mobile", number: workspace.parser.parse($0)) }
            try workspace.contacts.insert(Person(firstName: first, lastName: last, phones: phones))
        }

        /// The pane with its first listing and the rows of a first frame read (as the app loop would).
        func start() async throws -> ContactsPane {
            let vm = ContactsViewModel(book: ws.book, suggestions: nil, context: effects.context(toasts: toasts))
            pane = ContactsPane(viewModel: vm)
            try await settle()
            return pane
        }

        /// Lets every read finish, lays out and draws (the layout asks for rows not read yet) and lets those finish.
        func settle() async throws {
            await effects.settle()
            _ = try draw(height: 30)
            await effects.settle()
        }

        func draw(width: Int = 80, height: Int = 12) throws -> Canvas {
            var canvas = Canvas(size: Size(width: width, height: height))
            pane.layout(in: canvas.bounds)
            pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
            return canvas
        }
    }

    @Test func wideAndHostileNamesKeepTheBordersAndNoEscapeReachesTheScreen() async throws {
        let f = try await Fixture()
        try f.add("王", "小明", "091 111 1111")
        try f.add("Zoë 👩‍👩‍👧", "Ünal", "091 222 2222")
        try f.add("Evil\u{1B}[2J\u{1B}]0;pwned\u{07}", "Person", "091 333 3333")
        try f.add("Ana", "Horvat", "091 444 4444", "098 555 5555")
        _ = try await f.start()
        let canvas = try f.draw()
        let text = canvas.snapshot()
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        #expect(text.contains("Evil Person"))        // the whole escape sequences are dropped, not just ESC
        #expect(text.contains("王 小明"))
        #expect(text.contains("Zoë 👩‍👩‍👧 Ünal"))
        #expect(text.contains("+385 91 111 1111") || text.contains("+385911111111"))
        // every row keeps its right border in the last column, whatever the widths inside
        for y in 1..<(canvas.height - 1) {
            #expect(canvas.cell(x: canvas.width - 1, y: y)?.character == "│", "row \(y) lost its border")
        }
        let expected = """
        ┌ Contacts — 4 people · by first name ─────────────────────────────────────────┐
        │A · Ana Horvat                            +385 91 444 4444    not invited     │
        │E · Evil Person                           +385 91 333 3333    not invited     │
        │Z · Zoë 👩‍👩‍👧 Ünal                           +385 91 222 2222    not invited     │
        │# · 王 小明                               +385 91 111 1111    not invited     │
        """
        #expect(text.components(separatedBy: "\n").prefix(5).joined(separator: "\n") == expected)
    }

    @Test func renderOnlyDrawsWhatIsReadAndTheLayoutPassAsksForTheRowsScrolledIntoView() async throws {
        let f = try await Fixture()
        for i in 0..<200 { try f.add("Person", String(format: "%03d", i), "091 \(String(format: "%03d", i)) 0000") }
        let pane = try await f.start()
        _ = pane.handle(action: .last)
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        var canvas = Canvas(size: Size(width: 80, height: 12))
        pane.render(into: &canvas, in: canvas.bounds, theme: theme)
        #expect(f.effects.queue.inFlight == 0)                      // a frame reads nothing
        pane.layout(in: canvas.bounds)
        #expect(f.effects.queue.inFlight == 1)                      // the layout pass asks for the rows at the end
        await f.effects.settle()
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: theme)
        #expect(canvas.snapshot().contains("Person 199") && f.effects.queue.inFlight == 0)
    }

    @Test func searchHighlightsTheMatchedLetters() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Horvat", "091 111 1111")
        try f.add("Ivo", "Babić", "091 222 2222")
        let pane = try await f.start()
        #expect(pane.handle(action: .search))
        #expect(pane.keyContext == .editor)
        for c in "hor" { #expect(pane.handle(unboundKey: .char(c))) }
        try await f.settle()
        let canvas = try f.draw()
        let text = canvas.snapshot()
        #expect(text.contains("/ hor"))
        #expect(text.contains("1 found"))
        #expect(!text.contains("Babić"))
        let at = try #require(canvas.find("Ana Horvat"))
        let styles = (0..<10).compactMap { canvas.cell(x: at.x + $0, y: at.y)?.style.role }
        #expect(styles[4...6].allSatisfy { $0 == .highlight })
        #expect(styles[0] != .highlight)
        #expect(pane.handle(action: .back))           // leaves the field, results stay
        #expect(pane.keyContext == .contacts)
        #expect(pane.handle(action: .back))           // clears the search
        try await f.settle()
        #expect(try f.draw().snapshot().contains("Babić"))
        // `/` after a search opens empty: a new search over everyone.
        #expect(pane.handle(action: .search))
        for c in "bab" { _ = pane.handle(unboundKey: .char(c)) }
        #expect(pane.handle(action: .back))
        #expect(pane.handle(action: .search))
        try await f.settle()
        let reopened = try f.draw().snapshot()
        #expect(!reopened.contains("/ bab") && reopened.contains("Ana Horvat") && reopened.contains("Babić"))
    }

    /// A term that cannot be read is said on the search line, the list keeps its last answer, and ↑ brings back the
    /// search made before.
    @Test func aQueryProblemShowsOnTheSearchLineAndUpRecallsTheLastSearch() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Horvat", "091 111 1111")
        try f.add("Ivo", "Babić", "092 222 2222")
        let pane = try await f.start()
        #expect(pane.handle(action: .search))
        for c in "phone:092" { #expect(pane.handle(unboundKey: .char(c))) }
        #expect(pane.handle(action: .finishEditing))
        try await f.settle()
        #expect(try f.draw().snapshot().contains("1 found"))
        #expect(pane.handle(action: .search))
        for c in "-status:maybe" { _ = pane.handle(unboundKey: .char(c)) }
        try await f.settle()
        let text = try f.draw().snapshot()
        #expect(text.contains("/ -status:maybe  status:maybe is not a state"), "\(text)")
        #expect(text.contains("Ana Horvat") && text.contains("Babić"))      // the last answer (everyone, from the empty field)
        #expect(pane.handle(action: .earlierSearch))
        try await f.settle()
        let recalled = try f.draw().snapshot()
        #expect(recalled.contains("/ phone:092") && recalled.contains("Babić") && !recalled.contains("Ana Horvat"), "\(recalled)")
    }

    @Test func sortByLastNameFromThePaletteAndADeliveriesOrderIsRefusedWithWhatContactsTake() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Zorić", "+385911111111")
        try f.add("Zoran", "Anić", "+385912222222")
        let pane = try await f.start()
        pane.viewModel.setSort(named: "last")              // what :sort last runs
        try await f.settle()
        #expect(pane.viewModel.sortsByLastName)
        pane.viewModel.setSort(named: "most-failed")
        #expect(pane.viewModel.sortsByLastName)
        #expect(f.toasts.notes.last?.text == "Contacts sort by first or last name (:sort first, :sort last); most-failed is an order of Deliveries")
    }

    @Test func emptyAddressBookShowsHowToImport() async throws {
        let f = try await Fixture()
        _ = try await f.start()
        let text = try f.draw(height: 14).snapshot()
        #expect(text.contains("Your address book is empty."))
        #expect(text.contains("herald contacts import FILE"))
    }

    @Test func iHandsTheSelectionOrThePersonUnderTheCursorToTheComposer() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Horvat", "091 111 1111", "098 555 5555")
        let pane = try await f.start()
        var asked: [[Int64]] = []
        pane.onInvite = { asked.append($0) }
        #expect(pane.handle(action: .invite))             // nothing selected: the person under the cursor
        #expect(pane.handle(action: .select))
        #expect(pane.handle(action: .invite))
        #expect(asked.count == 2 && asked[0] == asked[1] && asked[0].count == 1)
        #expect(!pane.capturesAllKeys)                    // the question is the Composer's, not this pane's
    }

    /// `a` opens the form over the list; what is typed in it is text (not the pane's keys), and ctrl-s stores it.
    @Test func theAddFormTakesTypedTextAndStoresTheContact() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Horvat", "091 444 4444")
        let pane = try await f.start()
        #expect(pane.handle(action: .addContact))
        #expect(pane.keyContext == .editor)
        for c in "Ivo" { #expect(pane.handle(unboundKey: .char(c))) }
        #expect(pane.handle(action: .nextPane))
        for c in "Babić" { #expect(pane.handle(unboundKey: .char(c))) }
        let shown = try f.draw(width: 80, height: 24).snapshot()
        #expect(shown.contains("New contact") && shown.contains("Ivo") && shown.contains("Babić"))
        #expect(shown.contains("ctrl-s save"))
        #expect(pane.handle(action: .send))
        #expect(pane.keyContext == .contacts)
        try await f.settle()
        #expect(try f.workspace.contacts.people().map(\.displayName).sorted() == ["Ana Horvat", "Ivo Babić"])
        #expect(f.toasts.notes.last?.text == "Added Ivo Babić")
    }

    /// The footer is the pane's bindings as offered now, with the keys of the user's key map.
    @Test func theFooterNamesWhatThePaneOffersNowWithRemappedKeys() async throws {
        let f = try await Fixture()
        try f.add("Ana", "Horvat", "091 444 4444")
        try f.add("Ivo", "Babić", "091 555 5555")
        let pane = try await f.start()
        let keyMap = try KeyMap(overrides: ["add_contact": ["+"]])
        func footer() -> String {
            var canvas = Canvas(size: Size(width: 160, height: 1))
            AppStatusBar.renderHints(into: &canvas, rect: canvas.bounds, hints: pane.hints, context: pane.keyContext, keyMap: keyMap)
            return canvas.snapshot()
        }
        #expect(footer().contains("/ search  space select  A all  I invite  enter detail  s sort  + add  e edit"))
        #expect(!footer().contains(" merge "))
        pane.viewModel.toggleSelection(); pane.viewModel.moveCursor(by: 1); pane.viewModel.toggleSelection()
        #expect(footer().contains("M merge"))
        // The same declarations serve a person's detail: its own footer; the list's keys are not offered there.
        #expect(pane.handle(action: .open))
        await f.effects.settle()
        #expect(pane.viewModel.detail != nil)
        #expect(footer().contains("I invite  e edit  esc back") && !footer().contains("search"))
        #expect(!pane.bindings.offered.contains(.sort) && !pane.bindings.offered.contains(.search))
        #expect(pane.handle(action: .open) && pane.viewModel.detail == nil, "enter closes the detail")
        #expect(pane.bindings.offered.isSuperset(of: [.sort, .search, .selectNone, .duplicates]))
    }
}
