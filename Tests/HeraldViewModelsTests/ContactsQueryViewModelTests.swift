import Foundation
import HeraldTestKit
import HeraldCore
import HeraldStore
@testable import HeraldServices
import Testing
@testable import HeraldViewModels

/// The query language and the search history in Contacts, on a real workspace.
@Suite("Contacts query and search history")
struct ContactsQueryViewModelTests {
    private func make(_ ws: WorkspaceHarness) async -> (ContactsViewModel, EffectPump, UISide) {
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = ui { ContactsViewModel(book: ws.book, suggestions: nil, context: effects.context(toasts: ToastBoard(clock: ws.clock))) }
        await effects.settle()
        return (vm, effects, ui)
    }

    private func seeded() async throws -> WorkspaceHarness {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ivo", "Horvatić", "092 222 2222")
        try ws.add("Zora", "Kovač", "091 444 4444")
        return ws
    }

    @Test func fieldsAndNotsNarrowTheListAndMarkOnlyWhatIsLookedFor() async throws {
        let ws = try await seeded()
        let (vm, effects, ui) = await make(ws)
        ui { vm.beginSearch(); vm.setQuery("horvat -phone:092") }
        await effects.settle()
        let rows = await ui.rows(vm, 0..<vm.count, effects)
        #expect(rows.map(\.name) == ["Ana Horvat"])
        #expect(rows.first?.matches == [4..<10])
        ui { vm.setQuery("phone:+38591 -name:zora") }
        await effects.settle()
        #expect(await ui.rows(vm, 0..<vm.count, effects).map(\.name) == ["Ana Horvat"])
        #expect(ui.violations.isEmpty)
    }

    @Test func aQueryThatCannotBeReadSaysWhyAndKeepsTheList() async throws {
        let ws = try await seeded()
        let (vm, effects, ui) = await make(ws)
        ui { vm.beginSearch(); vm.setQuery("horvat") }
        await effects.settle()
        #expect(vm.listing.total == 2)
        ui { vm.setQuery("horvat status:maybe") }
        await effects.settle()
        #expect(vm.queryProblem?.contains("status:maybe is not a state") == true)
        #expect(vm.listing.total == 2 && vm.loadError == nil)
        ui { vm.setQuery("horvat status:not-invited") }
        await effects.settle()
        #expect(vm.queryProblem == nil && vm.listing.total == 2)
        // book: is read, but no book is configured: said by the field, not in place of the list.
        ui { vm.setQuery("book:work") }
        await effects.settle()
        #expect(vm.queryProblem?.contains("no address books are configured") == true)
        #expect(vm.loadError == nil)
    }

    @Test func upAndDownWalkTheSearchesKeptAcrossRuns() async throws {
        let ws = try await seeded()
        do {
            let (vm, effects, ui) = await make(ws)
            for text in ["ana", "name:horvat", "zora"] {
                ui { vm.beginSearch(); vm.setQuery(text); vm.endSearch() }
                await effects.settle()
            }
        }
        // A new Contacts (the next run) reads the history back.
        let (vm, effects, ui) = await make(ws)
        #expect(vm.history.entries == ["ana", "name:horvat", "zora"])
        ui { vm.beginSearch(); vm.setQuery("iv") }
        #expect(ui { vm.recallSearch(-1) } == "zora")
        #expect(ui { vm.recallSearch(-1) } == "name:horvat")
        await effects.settle()
        #expect(vm.listing.total == 2)
        #expect(ui { vm.recallSearch(1) } == "zora")
        // Past the newest search: what was being typed.
        #expect(ui { vm.recallSearch(1) } == "iv")
        #expect(ui { vm.recallSearch(1) } == nil)
        #expect(ui.violations.isEmpty)
    }
}

@Suite("Contacts' address books")
struct ContactsBooksViewModelTests {
    @Test func theTitleLineSaysHowEachBookStands() async throws {
        let tempDir = try TempDir("vm-book")
        let folder = tempDir.url
        try Data("BEGIN:VCARD\nVERSION:3.0\nUID:a\nFN:Ana Horvat\nN:Horvat;Ana;;;\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("a.vcf"))
        var config = WorkspaceConfig(region: "HR")
        config.books = [AddressBook(name: "friends", kind: .vdir, location: folder.path)]
        let ws = try await WorkspaceHarness.screens(config: config)
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = ui { ContactsViewModel(book: ws.book, suggestions: nil, books: ws.workspace.books,
                                        context: effects.context(toasts: ToastBoard(clock: ws.clock))) }
        await effects.settle()
        #expect(vm.bookLine == "books: friends syncing…")
        _ = try await ws.workspace.books.sync()
        ui { vm.loadBookStates() }
        await effects.settle()
        #expect(vm.bookLine == "books: friends ✓ 1")
        try Data("BEGIN:VCARD\nFN:Broken\n".utf8).write(to: folder.appendingPathComponent("b.vcf"))
        _ = try await ws.workspace.books.sync()
        ui { vm.loadBookStates() }
        await effects.settle()
        #expect(vm.bookLine == "books: friends: 1 card could not be read")
        #expect(ui.violations.isEmpty)
    }
}

/// The events a bus published, for a test to look at (under a lock: the bus calls from any thread).
nonisolated final class PublishedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [HeraldEvent] = []
    func add(_ event: HeraldEvent) { lock.withLock { events.append(event) } }
    var all: [HeraldEvent] { lock.withLock { events } }
}

@Suite("Contacts' conflicts")
struct ContactsConflictViewModelTests {
    /// A CardDAV card changed here and on the server (the server's answer applied as a sync applies it), settled in
    /// Contacts by keeping Herald's version.
    @Test func cShowsTheNextConflictAndHKeepsHeraldsVersion() async throws {
        var config = WorkspaceConfig(region: "HR")
        config.books = [AddressBook(name: "dav", kind: .carddav, location: "https://dav.example.com/ana/contacts/")]
        let ws = try await WorkspaceHarness.screens(config: config)
        let books = AddressBooks(database: ws.workspace.database, parser: ws.workspace.parser)
        let card = { (last: String) in Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:Ana \(last)\r\nN:\(last);Ana;;;\r\nEND:VCARD\r\n".utf8) }
        var report = BookSyncReport(book: "dav")
        try books.applyRemote("dav", cards: [("a.vcf", "\"1\"", card("Horvat"))], removed: [], token: nil, report: &report)
        let ana = try #require(try ws.workspace.contacts.people().first)
        var draft = ContactDraft(ana)
        draft.organization = "Herald Org"
        _ = try ws.workspace.contacts.save(draft, personId: try #require(ana.id), parser: ws.workspace.parser)
        try books.applyRemote("dav", cards: [("a.vcf", "\"2\"", card("Server"))], removed: [], token: nil, report: &report)
        #expect(report.conflicts == 1)

        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = ui { ContactsViewModel(book: ws.book, suggestions: nil, books: ws.workspace.books,
                                        context: effects.context(toasts: ToastBoard(clock: ws.clock))) }
        await effects.settle()
        #expect(vm.bookLine == "books: dav: 1 conflict to settle (C)")
        ui { vm.askConflict() }
        await effects.settle()
        let question = try #require(vm.conflictQuestion)
        #expect(question.name == "Ana Server" && question.book == "dav" && question.more == 0)
        #expect(question.mine.contains("ORG:Herald Org") && question.mine.contains("N:Horvat;Ana;;;"))
        #expect(question.theirs.contains("N:Server;Ana;;;"))
        let published = PublishedEvents()
        let subscription = ws.workspace.bus.subscribe { published.add($0) }
        defer { subscription.cancel() }
        ui { vm.settleConflict(keepMine: true) }
        await effects.settle()
        // The syncer says the books changed; the pane's view-model, told so, reads their state again.
        #expect(published.all.contains(.booksChanged))
        ui { _ = vm.handle(event: .booksChanged) }
        await effects.settle()
        #expect(vm.conflictQuestion == nil)
        #expect(try ws.workspace.contacts.people().first?.organization == "Herald Org")
        #expect(try books.conflicts().isEmpty)
        #expect(try books.pendingPushes("dav").count == 1)          // Herald's version goes up at the next sync
        #expect(vm.bookLine == "books: dav syncing…")
        #expect(ui.violations.isEmpty)
    }
}

@Suite struct SearchHistoryTests {
    @Test func keepsTheLatestOnceAndAtMostFifty() {
        var history = SearchHistory()
        let answers = [history.remember("ana"), history.remember("ana"), history.remember("  "), history.remember("bob"),
                       history.remember("ana")]
        #expect(answers == [true, false, false, true, true])
        #expect(history.entries == ["bob", "ana"])
        for i in 0..<60 { _ = history.remember("q\(i)") }
        #expect(history.entries.count == SearchHistory.limit && history.entries.last == "q59")
    }

    @Test func walksBackAndForth() {
        var history = SearchHistory(["a", "b"])
        let steps = [history.walk(1, current: "x"), history.walk(-1, current: "x"), history.walk(-1, current: "b"),
                     history.walk(-1, current: "a"), history.walk(1, current: "a"), history.walk(1, current: "b")]
        #expect(steps == [nil, "b", "a", nil, "b", "x"])
    }
}
