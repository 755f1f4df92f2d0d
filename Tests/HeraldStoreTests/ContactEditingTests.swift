import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestKit
import Testing

/// Merging, deleting and putting back people, and finding the ones who look like one person.
@Suite struct ContactEditingTests {
    @Test func aMergeKeepsTheFirstsNamesEveryNumberAndEmailOnceJoinsNotesAndHandsOverInvitations() throws {
        let s = try TempStore()
        var a = person("Ana", "Kovač", phones: ["091 234 5678"], emails: ["ana@acme.hr"], org: "Acme")
        a.note = "met at the fair"
        let kept = try s.contacts.insert(a)
        var b = person("Ana", "Kovac", phones: ["+385 91 234 5678", "098 765 4321"], emails: ["ANA@acme.hr", "ana@home.example"], org: "Other")
        b.note = "likes tea"
        let other = try s.contacts.insert(b)
        // The second was invited; the first never was.
        try s.ledger.enqueue([QueuedRecipient(msisdn: "+385987654321", personId: other.id, correlator: "c1")])
        let keptId = try #require(kept.id), otherId = try #require(other.id)
        let merge = try s.contacts.merge(ids: [keptId, otherId])
        #expect(merge.removed.map(\.id) == [otherId])
        let stored = try #require(try s.contacts.person(id: keptId))
        #expect(stored.lastName == "Kovač" && stored.organization == "Acme")
        #expect(stored.phones.map(\.number.e164) == ["+385912345678", "+385987654321"])
        #expect(stored.emails.map(\.address) == ["ana@acme.hr", "ana@home.example"])
        #expect(stored.note == "met at the fair\nlikes tea")
        #expect(try s.contacts.person(id: otherId) == nil)
        #expect(try s.contacts.count() == 1)
        // The invitation now belongs to the merged person, and the number still reads as invited.
        #expect(try s.ledger.invitations(personId: keptId).map(\.correlator) == ["c1"])
        #expect(try s.ledger.latestStatuses(msisdns: stored.distinctNumbers)["+385987654321"] == .queued)
    }

    @Test func aMergeNamingAMissingPersonChangesNothing() throws {
        let s = try TempStore()
        let a = try #require(try s.contacts.insert(person("Ana", "Kovač", phones: ["091 234 5678"])).id)
        #expect(throws: ContactStoreError.self) { try s.contacts.merge(ids: [a, 999]) }
        #expect(throws: ContactStoreError.self) { try s.contacts.merge(ids: [a, a]) }
        #expect(try s.contacts.person(id: a)?.phones.count == 1)
    }

    @Test func deletedPeopleComeBackUnderTheirOwnIdsWithEverything() throws {
        let s = try TempStore()
        var a = person("Ana", "Kovač", phones: ["091 234 5678"], emails: ["ana@acme.hr"])
        a.note = "note"
        let ana = try #require(try s.contacts.insert(a).id)
        let ivo = try #require(try s.contacts.insert(person("Ivo", "Ivić", phones: ["098 111 2222"])).id)
        try s.contacts.setSMSNumber("+385912345678", personId: ana)
        let deleted = try s.contacts.delete(ids: [ana, ivo])
        #expect(try s.contacts.count() == 0)
        try s.contacts.restore(deleted)
        let back = try s.contacts.people(ids: [ana, ivo])
        #expect(back.map(\.displayName) == ["Ana Kovač", "Ivo Ivić"])
        #expect(back[0].smsNumber == "+385912345678" && back[0].note == "note" && back[0].emails.count == 1)
        #expect(try s.contacts.search("kovac").people.map(\.id) == [ana])
    }

    @Test func duplicatesAreGroupedByNumberEmailAndFoldedNamesEachWithWhy() throws {
        let s = try TempStore()
        let a = try s.contacts.insert(person("Ana", "Kovač", phones: ["091 234 5678"]))
        let b = try s.contacts.insert(person("Ana", "K.", phones: ["+385912345678"]))
        let c = try s.contacts.insert(person("ana", "kovac", emails: ["a@x.hr"]))
        let d = try s.contacts.insert(person("Ivo", "Ivić", emails: ["IVO@x.hr"]))
        let e = try s.contacts.insert(person("Ivić", "Ivo", emails: ["ivo@x.hr"]))
        _ = try s.contacts.insert(person("Maja", "Horvat", phones: ["098 000 1111"]))
        let groups = try s.contacts.duplicates()
        #expect(groups.map(\.ids) == [[a.id!, b.id!, c.id!], [d.id!, e.id!]])
        #expect(groups[0].reasons == ["names alike: ana kovac", "same number +385912345678"])
        #expect(groups[1].reasons == ["names alike: ivic ivo", "same email ivo@x.hr"])
    }

    @Test func aCardsNoteIsImportedAndWrittenBackEscaped() throws {
        let s = try TempStore()
        _ = try s.importText("n.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ana\r\nTEL:091 234 5678\r\nNOTE:met at the fair\\, 2025\\nlikes tea\r\nEND:VCARD\r\n")
        let p = try #require(try s.all().first)
        #expect(p.note == "met at the fair, 2025\nlikes tea")
        #expect(VCardWriter.card(p).contains("NOTE:met at the fair\\, 2025\\nlikes tea\r\n"))
    }
}
