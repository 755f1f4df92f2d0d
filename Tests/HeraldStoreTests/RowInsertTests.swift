import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The importer's insert path binds through SQLite's C API; what it stores must be what GRDB would.
@Suite struct RowInsertTests {
    @Test func emptyTextStaysEmptyNilBecomesNullAndTextRoundTrips() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(Person(firstName: "", lastName: "Ž’ü 😀 \"quoted\" ?1",
                                               phones: [LabeledPhone(label: nil, number: PhoneNumber(raw: "", e164: nil, kind: .unknown,
                                                                                                    region: nil, invalidReason: "empty"))],
                                               emails: [LabeledEmail(label: "", address: "Ana@Example.com")]))
        let id = try #require(ana.id)
        let stored = try #require(try s.contacts.people(ids: [id]).first)
        #expect(stored.firstName == "")
        #expect(stored.lastName == "Ž’ü 😀 \"quoted\" ?1")
        #expect(stored.organization == nil)
        #expect(stored.phones.first?.label == nil)
        #expect(stored.phones.first?.number.raw == "")
        #expect(stored.emails.first?.label == "")
        let raw = try s.database.read { db in
            try Row.fetchOne(db, sql: "SELECT first_name IS NULL, organization IS NULL, uid IS NULL FROM person")
        }
        #expect(raw?[0] == false)
        #expect(raw?[1] == true)
        #expect(raw?[2] == true)
        let norm = try s.database.read { db in try String.fetchOne(db, sql: "SELECT address_norm FROM email") }
        #expect(norm == "ana@example.com")
    }

    @Test func aRefusalComesBackAsADatabaseErrorAndTheStatementStaysUsable() throws {
        let s = try TempStore()
        try s.database.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT NOT NULL, b INTEGER)")
            let insert = RowInsert(try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"), db: db)
            insert.bind(1, nil as String?)
            insert.bind(2, 1)
            let refused = #expect(throws: DatabaseError.self) { try insert.run() }
            #expect(refused?.resultCode == .SQLITE_CONSTRAINT)
            #expect(refused?.message?.contains("NOT NULL") == true)
            insert.bind(1, "kept")
            insert.bind(2, nil as Int64?)
            try insert.run()
            #expect(try Row.fetchAll(db, sql: "SELECT a, b FROM t").map { [$0[0] as String?, ($0[1] as Int64?).map(String.init)] }
                    == [["kept", nil]])
        }
    }
}
