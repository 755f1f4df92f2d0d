import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct ContactStoreTests {
    @Test func opensInWALModeWithMigrations() throws {
        let s = try TempStore()
        #expect(try s.database.journalMode() == "wal")
        #expect(FileManager.default.fileExists(atPath: s.folder.appendingPathComponent("herald.sqlite").path))
        // Reopening the same file migrates nothing twice and keeps data.
        try s.contacts.insert(person("Ana", "Horvat"))
        let again = try HeraldDatabase.open(inDirectory: s.folder)
        #expect(try ContactStore(database: again).count() == 1)
    }

    @Test func ordersByFirstOrLastNameIgnoringCaseAndDiacritics() throws {
        let s = try TempStore()
        for p in [person("Željko", "Anić"), person("zoran", "Babić"), person("Ana", "Žužul"), person("Ćiro", "Horvat")] {
            try s.contacts.insert(p)
        }
        #expect(try s.contacts.people(sortedBy: .firstName).map(\.firstName) == ["Ana", "Ćiro", "Željko", "zoran"])
        #expect(try s.contacts.people(sortedBy: .lastName).map(\.lastName) == ["Anić", "Babić", "Horvat", "Žužul"])
        #expect(try s.contacts.people(sortedBy: .lastName, limit: 2, offset: 1).map(\.lastName) == ["Babić", "Horvat"])
        #expect(try s.contacts.count() == 4)
    }

    @Test func personByIdKeepsPhonesEmailsAndLabels() throws {
        let s = try TempStore()
        let stored = try s.contacts.insert(person("Ana", "Horvat", phones: ["098 123 4567", "nonsense"],
                                                  emails: ["ana@example.com"], org: "Acme"))
        let id = try #require(stored.id)
        let back = try #require(try s.contacts.person(id: id))
        #expect(back.phones.map(\.number.e164) == ["+385981234567", nil])
        #expect(back.phones[1].number.raw == "nonsense")
        #expect(back.phones[1].number.invalidReason != nil)
        #expect(back.emails.map(\.address) == ["ana@example.com"])
        #expect(back.organization == "Acme")
        #expect(try s.contacts.person(id: id + 100) == nil)
    }

    @Test func updateAndDeleteChangeWhatSearchFinds() throws {
        let s = try TempStore()
        var p = try s.contacts.insert(person("Ana", "Horvat"))
        #expect(try s.contacts.search("horvat").total == 1)
        p.lastName = "Kovač"
        p.formattedName = "Ana Kovač"
        try s.contacts.update(p)
        #expect(try s.contacts.search("horvat").total == 0)
        #expect(try s.contacts.search("kovac").total == 1)
        try s.contacts.delete(id: try #require(p.id))
        #expect(try s.contacts.search("kovac").total == 0)
        #expect(throws: ContactStoreError.self) { try s.contacts.update(p) }
    }
}

@Suite struct ContactSortSafetyTests {
    @Test func escapeSequencesInNamesDoNotChangeTheOrder() throws {
        let s = try TempStore()
        try s.contacts.insert(person("Ana", "\u{1B}[31mZec"))
        try s.contacts.insert(person("Bo", "Babić"))
        #expect(try s.contacts.people(sortedBy: .lastName).map(\.firstName) == ["Bo", "Ana"])
    }

    @Test func peopleByIdKeepTheOrderAskedAndAnIdAskedTwiceKeepsItsNumbersOnce() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["098 123 4567", "091 765 4321"], emails: ["ana@example.com"]))
        let bo = try s.contacts.insert(person("Bo", "Babić", phones: ["095 111 2222"]))
        let a = try #require(ana.id), b = try #require(bo.id)
        // Ids are read 512 at a time: Bo is asked for again in a later chunk.
        let unknown = (0..<600).map { Int64(1_000_000 + $0) }
        let read = try s.contacts.people(ids: [b, a] + unknown + [b])
        #expect(read.map(\.firstName) == ["Bo", "Ana", "Bo"])
        #expect(read.map(\.phones.count) == [1, 2, 1])
        #expect(read[1].emails.map(\.address) == ["ana@example.com"])
    }
}
