import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// Groups on a real herald.sqlite: read from vCard 3 and 4 CATEGORIES, Google's Labels and Outlook's Categories, vCard 4
/// group cards; found by `group:` through the folded-name index; tagged; written back to a vdir card's own line.
@Suite struct GroupsTests {
    func search(_ s: TempStore, _ text: String) throws -> [String] {
        let found = try ContactSearch(contacts: s.contacts, ledger: s.ledger).people(try ContactQuery(text))
        return found.people.map(\.displayName)
    }

    @Test func vCard3And4CategoriesAreReadAsGroupsFoldedAsNamesAre() throws {
        let s = try TempStore()
        _ = try s.importText("people.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Ana Horvat\r
            TEL:+385911111111\r
            CATEGORIES:Running Club,Trčanje\\, subota,friends\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Bo Kim\r
            TEL;VALUE=uri:tel:+385912222222\r
            CATEGORIES:running club\r
            CATEGORIES:Choir\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Cvita Perić\r
            TEL;VALUE=uri:tel:+385913333333\r
            END:VCARD\r

            """)
        let ana = try #require(try s.all().first { $0.firstName == "Ana" })
        #expect(ana.groups.sorted() == ["Running Club", "Trčanje, subota", "friends"].sorted())
        let bo = try #require(try s.all().first { $0.firstName == "Bo" })
        #expect(bo.groups.sorted() == ["Choir", "running club"])
        #expect(try search(s, "group:\"RUNNING club\"") == ["Ana Horvat", "Bo Kim"])
        #expect(try search(s, "group:\"trcanje, subota\"") == ["Ana Horvat"])
        #expect(try search(s, "-group:\"running club\"") == ["Cvita Perić"])
        #expect(try search(s, "bo group:choir") == ["Bo Kim"])
        #expect(try search(s, "group:nobody").isEmpty)
        // The lookup is the index on folded names, not a scan of the table.
        let plan = try s.database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT person_id FROM person_group WHERE folded = ?", arguments: ["x"])
                .map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.joined().contains("person_group_folded"), "\(plan)")
    }

    @Test func googleLabelsAndOutlookCategoriesAreGroupsWithoutMyContacts() throws {
        let s = try TempStore()
        _ = try s.importText("google.csv", """
            First Name,Last Name,Labels,Phone 1 - Label,Phone 1 - Value
            Ana,Horvat,* myContacts ::: Running Club ::: * starred,Mobile,+385911111111
            Bo,Kim,* myContacts,Mobile,+385912222222

            """)
        _ = try s.importText("outlook.csv", """
            First Name,Last Name,Mobile Phone,Categories
            Cvita,Perić,+385913333333,Choir;running club

            """)
        let people = try s.all()
        #expect(people.first { $0.firstName == "Ana" }?.groups.sorted() == ["Running Club", "starred"])
        #expect(people.first { $0.firstName == "Bo" }?.groups == [])
        #expect(people.first { $0.firstName == "Cvita" }?.groups.sorted() == ["Choir", "running club"])
        #expect(try search(s, "group:mycontacts").isEmpty)
        #expect(try search(s, "group:\"running club\"") == ["Ana Horvat", "Cvita Perić"])
        let groups = try ContactSearch(contacts: s.contacts, ledger: s.ledger).groups()
        #expect(groups.map(\.name) == ["Choir", "Running Club", "starred"] && groups.map(\.people) == [1, 2, 1])
    }

    @Test func aKindGroupCardMakesItsMembersMembersAndIsNoPerson() throws {
        let s = try TempStore()
        let report = try s.importText("group.vcf", """
            BEGIN:VCARD
            VERSION:4.0
            KIND:group
            UID:urn:uuid:g-1
            FN:Choir
            MEMBER:urn:uuid:p-1
            MEMBER:urn:uuid:p-3
            MEMBER:mailto:someone@example.com
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            UID:urn:uuid:p-1
            FN:Ana Horvat
            TEL;VALUE=uri:tel:+385911111111
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            UID:p-2
            FN:Bo Kim
            TEL;VALUE=uri:tel:+385912222222
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            UID:p-3
            FN:Cvita Perić
            TEL;VALUE=uri:tel:+385913333333
            CATEGORIES:Friends
            END:VCARD

            """)
        #expect(report.imported == 3)
        #expect(try s.all().map(\.displayName) == ["Ana Horvat", "Bo Kim", "Cvita Perić"])
        #expect(try search(s, "group:choir") == ["Ana Horvat", "Cvita Perić"])
        #expect(try s.all().first { $0.firstName == "Cvita" }?.groups == ["Choir", "Friends"])
        // An edit of a member keeps what the group card gave; untagging takes the person out of it.
        let cvita = try #require(try s.all().first { $0.firstName == "Cvita" }?.id)
        try s.contacts.tag(ids: [cvita], adding: ["Runners"], removing: [])
        #expect(try search(s, "group:choir") == ["Ana Horvat", "Cvita Perić"])
        try s.contacts.tag(ids: [cvita], adding: [], removing: ["choir"])
        #expect(try search(s, "group:choir") == ["Ana Horvat"])
        #expect(try s.contacts.person(id: cvita)?.groups == ["Friends", "Runners"])
    }

    @Test func taggingAddsAndRemovesCaselesslyAndRefusesAnUnknownId() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["+385911111111"]))
        let bo = try s.contacts.insert(person("Bo", "Kim", phones: ["+385912222222"]))
        let ids = [try #require(ana.id), try #require(bo.id)]
        let changed = try s.contacts.tag(ids: ids, adding: ["Running  Club"], removing: [])
        #expect(changed.map(\.groups) == [["Running Club"], ["Running Club"]])
        #expect(try s.contacts.tag(ids: ids, adding: ["running club"], removing: []).isEmpty)
        try s.contacts.tag(ids: [ids[0]], adding: ["Zbor"], removing: ["RUNNING CLUB"])
        #expect(try s.contacts.person(id: ids[0])?.groups == ["Zbor"])
        #expect(try search(s, "group:\"running club\"") == ["Bo Kim"])
        #expect(throws: ContactStoreError.self) { try s.contacts.tag(ids: [ids[1], 999], adding: ["X"], removing: []) }
        #expect(try s.contacts.person(id: ids[1])?.groups == ["Running Club"], "a refused tagging changes nobody")
        // A deleted person's groups go with them.
        try s.contacts.delete(id: ids[1])
        #expect(try ContactSearch(contacts: s.contacts, ledger: s.ledger).groups().map(\.name) == ["Zbor"])
    }

    @Test func aSmallGroupIsAnsweredFromItsPeopleInNameOrderWithTotalAndLimit() throws {
        let s = try TempStore()
        let first = ["Zora", "Ana", "Mia", "Bo", "Ivo", "Lea", "Eva", "Tin", "Una", "Vid", "Nika", "Pero", "Rok", "Sara", "Dino",
                     "Goran", "Hana", "Jan", "Kata", "Olga"]
        var ids: [String: Int64] = [:]
        for (i, name) in first.enumerated() {
            ids[name] = try s.contacts.insert(person(name, "Z\(20 - i)", phones: ["+3859100000\(10 + i)"])).id
        }
        try s.contacts.tag(ids: ["Zora", "Ana", "Tin"].compactMap { ids[$0] }, adding: ["Choir"], removing: [])
        let search = ContactSearch(contacts: s.contacts, ledger: s.ledger)
        let all = try #require(try search.hits(try ContactQuery("group:choir")))
        #expect(all.total == 3)
        #expect(all.hits.map(\.personId) == ["Ana", "Tin", "Zora"].compactMap { ids[$0] })
        let two = try #require(try search.hits(try ContactQuery("group:choir"), limit: 2))
        #expect(two.total == 3 && two.hits.map(\.personId) == ["Ana", "Tin"].compactMap { ids[$0] })
        // By last name (Z18 Ana, Z13 Tin, Z20 Zora: "Z1…" before "Z2…"), and with another term.
        #expect(try search.hits(try ContactQuery("group:choir"), sortedBy: .lastName)?.hits.map(\.personId)
                == ["Tin", "Ana", "Zora"].compactMap { ids[$0] })
        #expect(try search.hits(try ContactQuery("group:choir -name:tin"))?.hits.map(\.personId) == ["Ana", "Zora"].compactMap { ids[$0] })
        #expect(try search.hits(try ContactQuery("-group:choir"))?.total == 17)
    }

    @Test func aTaggedVdirCardChangesOnlyItsCategoriesLine() throws {
        let s = try TempStore()
        let folder = s.folder.appendingPathComponent("personal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:ana-1\r
            FN:Ana Horvat\r
            N:Horvat;Ana;;;\r
            TEL;TYPE=cell:+385911111111\r
            REV:20261126T031500Z\r
            CATEGORIES:friends\r
            X-KHARD-NICK:ana\r
            ADR;TYPE=home:;;a street name long enough that the program that wrote it folded the line ;Zag\r
             reb;;10000;Croatia\r
            END:VCARD\r

            """
        let plain = "BEGIN:VCARD\nVERSION:4.0\nUID:bo-2\nFN:Bo Kim\nN:Kim;Bo;;;\nEMAIL:bo@example.com\nX-ODD:kept\nEND:VCARD\n"
        try Data(original.utf8).write(to: folder.appendingPathComponent("ana-1.vcf"))
        try Data(plain.utf8).write(to: folder.appendingPathComponent("bo-2.vcf"))
        let books = AddressBooks(database: s.database, parser: parserHR, clock: s.clock)
        try books.register([AddressBook(name: "personal", kind: .vdir, location: folder.path)])
        _ = try books.sync("personal")
        let ana = try #require(try s.all().first { $0.firstName == "Ana" })
        #expect(ana.groups == ["friends"])
        let anaId = try #require(ana.id), boId = try #require(try s.all().first { $0.firstName == "Bo" }?.id)

        try s.contacts.tag(ids: [anaId, boId], adding: ["Running, Club"], removing: [])
        let written = try String(contentsOf: folder.appendingPathComponent("ana-1.vcf"), encoding: .utf8)
        let before = original.components(separatedBy: "\r\n"), after = written.components(separatedBy: "\r\n")
        // Only CATEGORIES (and REV, the time of the write) changed, in place; every other line is byte for byte.
        #expect(after.count == before.count)
        for (old, new) in zip(before, after) where !old.hasPrefix("REV:") && !old.hasPrefix("CATEGORIES:") { #expect(old == new) }
        #expect(after[7] == "CATEGORIES:friends,Running\\, Club", "\(after)")
        let bo = try String(contentsOf: folder.appendingPathComponent("bo-2.vcf"), encoding: .utf8)
        #expect(bo.contains("CATEGORIES:Running\\, Club\n") && bo.contains("X-ODD:kept\n") && !bo.contains("\r"), "\(bo)")

        // Read back by a sync: the same groups; taken out of every group, the card has no CATEGORIES line.
        _ = try books.sync("personal")
        #expect(try s.contacts.person(id: anaId)?.groups.sorted() == ["Running, Club", "friends"])
        try s.contacts.tag(ids: [boId], adding: [], removing: ["running, club"])
        #expect(!(try String(contentsOf: folder.appendingPathComponent("bo-2.vcf"), encoding: .utf8)).contains("CATEGORIES"))

        // An edit that leaves the groups alone keeps the CATEGORIES line as written.
        let draft = ContactDraft(try #require(try s.contacts.person(id: anaId)))
        var changed = draft
        changed.organization = "Acme"
        _ = try s.contacts.save(changed, personId: anaId, parser: parserHR)
        let edited = try String(contentsOf: folder.appendingPathComponent("ana-1.vcf"), encoding: .utf8)
        #expect(edited.contains("CATEGORIES:friends,Running\\, Club\r\n"), "\(edited)")
    }

    @Test func aCardWithoutGroupsGetsNoCategoriesWhenEdited() throws {
        let card = "BEGIN:VCARD\nVERSION:3.0\nUID:x\nFN:Ana Horvat\nN:Horvat;Ana;;;\nX-A:1\nEND:VCARD\n"
        let patched = VCardPatch.apply(Person(uid: "x", firstName: "Ana", lastName: "Horvat", formattedName: "Ana Horvat"),
                                       to: card, now: Date(timeIntervalSince1970: 0))
        #expect(!patched.contains("CATEGORIES"))
        #expect(patched.contains("X-A:1\n") && patched.contains("UID:x\n"))
    }
}
