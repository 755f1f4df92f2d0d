import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The rows a list showed lately are read once, until the contacts or the ledger change, whoever changes them.
@Suite struct ShownPeopleTests {
    @Test func rowsAreReadOnceUntilTheContactsChange() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["+385 98 111 1111"]))
        let ivo = try s.contacts.insert(person("Ivo", "Ivić"))
        let id = try #require(ana.id), other = try #require(ivo.id)
        let shown = ShownPeople()
        #expect(try shown.rows(ids: [id, other], database: s.database).map(\.person.firstName) == ["Ana", "Ivo"])

        // A change that tells nobody (no generation bump) is not seen: the row came from memory.
        try s.database.write { try $0.execute(sql: "UPDATE person SET first_name = 'Hidden' WHERE id = ?", arguments: [id]) }
        #expect(try shown.rows(ids: [other, id], database: s.database).map(\.person.firstName) == ["Ivo", "Ana"])

        // A change made through the store, from another connection (another process would do the same).
        let elsewhere = try HeraldDatabase(path: s.database.path)
        var renamed = try #require(try ContactStore(database: elsewhere).person(id: id))
        renamed.firstName = "Anica"
        try ContactStore(database: elsewhere).update(renamed)
        #expect(try shown.rows(ids: [id], database: s.database).map(\.person.firstName) == ["Anica"])
        // Unknown ids are left out; the order asked for is kept.
        #expect(try shown.rows(ids: [999, other, id], database: s.database).compactMap(\.person.id) == [other, id])
    }

    @Test func summariesFollowTheLedgerWhoeverWritesIt() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["+385 98 111 1111"]))
        let id = try #require(ana.id)
        let shown = ShownPeople()
        #expect(try shown.rows(ids: [id], database: s.database).first?.summary.statusByNumber.isEmpty == true)

        let elsewhere = try HeraldDatabase(path: s.database.path)
        try LedgerStore(database: elsewhere, clock: s.clock)
            .enqueue([QueuedRecipient(msisdn: "+385981111111", personId: id, correlator: "c1")])
        #expect(try shown.rows(ids: [id], database: s.database).first?.summary.statusByNumber == ["+385981111111": .queued])
    }

    @Test func bigReadsAreNotKept() throws {
        let s = try TempStore()
        _ = try s.contacts.insert(person("Ana", "Horvat"))
        let ids = try s.database.read { try Int64.fetchAll($0, sql: "SELECT id FROM person") }
        let shown = ShownPeople()
        let many = ids + Array(repeating: Int64(-1), count: ShownPeople.screenful)   // more than a screenful
        #expect(try shown.rows(ids: many, database: s.database).count == 1)
        try s.database.write { try $0.execute(sql: "UPDATE person SET first_name = 'Seen' WHERE id = ?", arguments: [ids[0]]) }
        #expect(try shown.rows(ids: ids, database: s.database).first?.person.firstName == "Seen")
    }

    @Test func theFirstScreenInNameOrder() throws {
        let s = try TempStore()
        for (first, last) in [("Ivo", "Ivić"), ("Ana", "Horvat"), ("Zora", "Anić")] { try s.contacts.insert(person(first, last)) }
        let shown = ShownPeople()
        #expect(try shown.rows(sortedBy: .firstName, limit: 2, offset: 0, database: s.database).map(\.person.firstName) == ["Ana", "Ivo"])
        #expect(try shown.rows(sortedBy: .lastName, limit: 5, offset: 1, database: s.database).map(\.person.lastName) == ["Horvat", "Ivić"])
    }
}
