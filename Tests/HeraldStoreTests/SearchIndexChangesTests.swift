import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// An index a few changes behind takes just the changed people again: it must come out as a rebuild would.
@Suite struct SearchIndexChangesTests {
    /// Every array of `a` equals `b`'s.
    func expectSame(_ a: SearchIndex, _ b: SearchIndex, _ note: String) {
        #expect(a.ids == b.ids, "\(note): first-name order")
        #expect(a.text == b.text && a.textStart == b.textStart, "\(note): keys")
        #expect(a.digits == b.digits && a.digitStart == b.digitStart, "\(note): phone digits")
        #expect(a.lastRank == b.lastRank, "\(note): last-name order")
        #expect(a.generation == b.generation && a.changeSeq == b.changeSeq, "\(note): stamp")
    }

    @Test func takingTheChangedPeopleAgainComesOutAsARebuild() throws {
        let s = try TempStore()
        for p in AddressBookGenerator(seed: 3).people(count: 300) { try s.contacts.insert(p) }
        let contacts = s.contacts
        var index = try s.database.pool.read { try SearchIndex.build($0) }
        var rng = SeededRandom(seed: 5)
        let names = ["Aaron", "Zoë", "Đurđa", "Mia", "Ivan", "Ана", "Ünal", "Bo"]
        for round in 0..<12 {
            let ids = try contacts.personIDs()
            for _ in 0..<rng.int(1..<9) {
                let id = ids[rng.int(0..<ids.count)]
                switch rng.int(0..<4) {
                case 0:    // renamed: moves in both name orders
                    guard let p = try contacts.person(id: id) else { continue }
                    var draft = ContactDraft(p)
                    draft.firstName = names[rng.int(0..<names.count)]
                    draft.lastName = names[rng.int(0..<names.count)] + "\(round)"
                    _ = try contacts.save(draft, personId: id, parser: parserHR)
                case 1:    // a new number: only the digits change
                    guard let p = try contacts.person(id: id) else { continue }
                    var draft = ContactDraft(p)
                    draft.phones.append(.init(label: "cell", value: "+385 91 \(1_000_000 + rng.int(0..<8_999_999))"))
                    _ = try contacts.save(draft, personId: id, parser: parserHR)
                case 2:
                    _ = try contacts.delete(ids: [id])
                default:
                    var draft = ContactDraft()
                    draft.firstName = names[rng.int(0..<names.count)]
                    draft.lastName = "New\(round)"
                    draft.phones = [.init(label: nil, value: "+385 98 123 45\(10 + round)")]
                    _ = try contacts.add(draft, parser: parserHR)
                }
            }
            let caughtUp = try #require(try s.database.pool.read { try index.caughtUp($0) }, "round \(round)")
            let rebuilt = try s.database.pool.read { try SearchIndex.build($0) }
            expectSame(caughtUp, rebuilt, "round \(round)")
            for query in ["a", "new\(round)", "zoe", "ana", "385 98", "durda"] {
                for byLast in [false, true] {
                    #expect(caughtUp.search(query, byLastName: byLast, limit: nil) == rebuilt.search(query, byLastName: byLast, limit: nil),
                            "round \(round): \(query)")
                }
            }
            index = caughtUp
        }
    }

    @Test func manyChangesOrForgottenOnesBuildTheIndexAgain() throws {
        let s = try TempStore()
        for p in AddressBookGenerator(seed: 4).people(count: 100) { try s.contacts.insert(p) }
        let index = try s.database.pool.read { try SearchIndex.build($0) }
        // More people changed than are taken one by one.
        for p in AddressBookGenerator(seed: 9).people(count: SearchIndex.maxChangedPeople + 1) { try s.contacts.insert(p) }
        #expect(try s.database.pool.read { try index.caughtUp($0) } == nil)
        // One person changed over and over, until the first of those changes is forgotten.
        let again = try s.database.pool.read { try SearchIndex.build($0) }
        let id = try #require(try s.contacts.personIDs().first)
        try s.database.pool.write { db in
            for _ in 0...PersonRows.keptChanges { try db.execute(sql: "UPDATE person SET sort_first = sort_first || 'x' WHERE id = ?", arguments: [id]) }
            try PersonRows.bumpGeneration(db)
        }
        #expect(try s.database.pool.read { try again.caughtUp($0) } == nil)
        #expect(try s.database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person_change") } == PersonRows.keptChanges)
        // The store still answers from the contacts as they are.
        let last = try #require(try s.contacts.person(id: id))
        #expect(try s.contacts.search(last.lastName).people.contains { $0.id == id })
    }

    @Test func aNewProcessTakesTheSavedIndexAndOnlyTheChangesSince() throws {
        let s = try TempStore()
        for p in AddressBookGenerator(seed: 6).people(count: 200) { try s.contacts.insert(p) }
        let file = s.database.path + ".search-index"
        let first = s.contacts
        #expect(try first.search("a").total > 0)
        let epoch = try s.database.read { db in try SearchIndexFile.Stamp(db).epoch }
        let saved = try #require(SearchIndexFile.load(file, epoch: epoch))
        // Another process's edit: this one's held index follows it; the file stays as it was.
        let id = try first.personIDs()[10]
        var draft = ContactDraft(try #require(try first.person(id: id)))
        draft.lastName = "Qwertyson"
        _ = try first.save(draft, personId: id, parser: parserHR)
        #expect(try first.search("qwertyson").people.map(\.id) == [id])
        #expect(SearchIndexFile.load(file, epoch: epoch)?.generation == saved.generation)
        // A new process (a store with nothing held) reads the file, takes the one change, and saves the result.
        #expect(try ContactStore(database: s.database).search("qwertyson").people.map(\.id) == [id])
        let resaved = try #require(SearchIndexFile.load(file, epoch: epoch))
        let rebuilt = try s.database.pool.read { try SearchIndex.build($0) }
        expectSame(resaved, rebuilt, "the saved index")
    }

    @Test func anotherDatabasesSavedIndexIsNotUsed() throws {
        let a = try TempStore(), b = try TempStore()
        try a.contacts.insert(person("Ana", "Horvat"))
        try b.contacts.insert(person("Ivo", "Kovač"))
        #expect(try a.contacts.search("ana").total == 1)
        // b's folder gets a's saved index, as a copied folder or a database replaced under the file would.
        try FileManager.default.copyItem(atPath: a.database.path + ".search-index", toPath: b.database.path + ".search-index")
        let store = ContactStore(database: b.database)
        #expect(try store.search("ana").total == 0)
        #expect(try store.search("kovac").people.map(\.firstName) == ["Ivo"])
    }

    @Test func aDamagedSavedIndexIsBuiltAgain() throws {
        let s = try TempStore()
        for p in AddressBookGenerator(seed: 8).people(count: 50) { try s.contacts.insert(p) }
        let expected = try s.contacts.search("a").total
        let file = s.database.path + ".search-index"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        // An entry start pointing past its neighbour: the file does not hold together.
        let epoch = try s.database.read { db in try SearchIndexFile.Stamp(db).epoch }
        let index = try #require(SearchIndexFile.load(file, epoch: epoch))
        let textStartAt = 8 * 4 + 8 + index.ids.count * 8 + 8 + index.text.count + 8
        bytes[textStartAt + 4 * 3 + 3] = 0x7F
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(SearchIndexFile.load(file, epoch: epoch) == nil)
        #expect(try ContactStore(database: s.database).search("a").total == expected)
    }
}
