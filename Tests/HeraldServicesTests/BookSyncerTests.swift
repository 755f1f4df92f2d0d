import Foundation
import HeraldCore
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// A workspace with a vdir book in its config: the book is read when watching starts, and a card another program
/// writes afterwards shows without anyone asking.
@Suite struct BookSyncerTests {
    /// A workspace whose vdir book "friends" starts with `cards` (file name → text), being watched.
    static func watchedBook(_ cards: [String: String]) async throws -> (harness: WorkspaceHarness, folder: URL) {
        let dir = try TempDir()
        let folder = try dir.folder("book")
        for (name, text) in cards { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        var config = WorkspaceHarness.config()
        config.books = [AddressBook(name: "friends", kind: .vdir, location: folder.path)]
        let harness = try await WorkspaceHarness(config: config, dir: dir)
        await harness.workspace.books.startWatching()
        return (harness, folder)
    }

    @Test func aCardWrittenByAnotherProgramShowsWhileWatching() async throws {
        let (harness, folder) = try await Self.watchedBook(["a.vcf": "BEGIN:VCARD\nVERSION:3.0\nUID:a\nFN:Ana Horvat\nN:Horvat;Ana;;;\nEND:VCARD\n"])
        let dir = harness.dir
        defer { harness.workspace.close() }
        let books = harness.workspace.books
        #expect(try harness.workspace.contacts.count() == 1)
        #expect(try await books.states().map(\.people) == [1])

        try Data("BEGIN:VCARD\nVERSION:3.0\nUID:b\nFN:Bo Kim\nN:Kim;Bo;;;\nTEL:+385 91 222 2222\nEND:VCARD\n".utf8)
            .write(to: folder.appendingPathComponent("b.vcf"))
        var count = 1
        for _ in 0..<100 where count < 2 {
            try await Task.sleep(nanoseconds: 50_000_000)
            count = try harness.workspace.contacts.count()
        }
        #expect(count == 2)
        let state = try #require(try await books.states().first)
        #expect(state.book.name == "friends" && state.people == 2 && state.syncedAt != nil && state.problem == nil)

        // A card moved out of the folder (as `mv` does) takes its person with it.
        try FileManager.default.moveItem(at: folder.appendingPathComponent("a.vcf"), to: dir.url.appendingPathComponent("a.vcf"))
        for _ in 0..<100 where count > 1 {
            try await Task.sleep(nanoseconds: 50_000_000)
            count = try harness.workspace.contacts.count()
        }
        #expect(try harness.workspace.contacts.people().map(\.firstName) == ["Bo"])
        await books.stopWatching()
    }

    /// A card that cannot be read stays reported while other cards change; mended, its report goes.
    @Test func anUnreadableCardStaysReportedWhileOtherCardsChange() async throws {
        let (harness, folder) = try await Self.watchedBook(["bad.vcf": "BEGIN:VCARD\nVERSION:3.0\nUID:bad\nFN:Broken\n"])
        defer { harness.workspace.close() }
        let books = harness.workspace.books
        defer { Task { await books.stopWatching() } }
        #expect(try await books.states().first?.problem == "1 card could not be read")

        func waitForPeople(_ count: Int) async throws {
            var tries = 0
            while try harness.workspace.contacts.count() != count, tries < 100 { tries += 1; try await Task.sleep(nanoseconds: 50_000_000) }
            #expect(try harness.workspace.contacts.count() == count)
        }
        try Data("BEGIN:VCARD\nVERSION:3.0\nUID:b\nFN:Bo Kim\nN:Kim;Bo;;;\nEND:VCARD\n".utf8).write(to: folder.appendingPathComponent("b.vcf"))
        try await waitForPeople(1)
        #expect(try await books.states().first?.problem == "1 card could not be read")

        try Data("BEGIN:VCARD\nVERSION:3.0\nUID:bad\nFN:Mended Card\nN:Card;Mended;;;\nEND:VCARD\n".utf8)
            .write(to: folder.appendingPathComponent("bad.vcf"))
        try await waitForPeople(2)
        var tries = 0
        while try await books.states().first?.problem != nil, tries < 40 { tries += 1; try await Task.sleep(nanoseconds: 50_000_000) }
        #expect(try await books.states().first?.problem == nil)
    }
}
