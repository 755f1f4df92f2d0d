import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldCardDAV
@testable import HeraldStore

/// Groups through a real Radicale: CATEGORIES read from the server, a tag given in Herald sent up in the card's own
/// line (the rest of the card as the server had it), another client's change of the groups brought down, and a vCard 4
/// group card read as the group of its members.
@Suite(.serialized) struct CardDAVGroupsTests {
    @Test func categoriesGoUpAndComeDownThroughRadicale() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Horvat", tel: "+385911111111",
                                                                extra: "CATEGORIES:Friends\r\nX-PHONE-APP:kept\r\n"), ifMatch: nil)
        _ = try await b.other.put("bo.vcf", card: DAVBook.card("bo", "Bo", "Kim", tel: "+385912222222"), ifMatch: nil)
        _ = try await b.sync()
        let ana = try #require(try b.person("Ana"))
        #expect(ana.groups == ["Friends"])
        let bo = try #require(try b.person("Bo"))
        try b.contacts.tag(ids: [try #require(ana.id), try #require(bo.id)], adding: ["Running Club"], removing: [])
        let up = try await b.sync()
        #expect(up.pushed == 2 && up.conflicts == 0)
        let anaOnServer = try #require(try await b.serverCard("ana.vcf"))
        #expect(anaOnServer.contains("CATEGORIES:Friends,Running Club") && anaOnServer.contains("X-PHONE-APP:kept"), "\(anaOnServer)")
        let boOnServer = try #require(try await b.serverCard("bo.vcf"))
        #expect(boOnServer.contains("CATEGORIES:Running Club"), "\(boOnServer)")

        // Another client takes Bo out of the group and puts him in another: the next sync brings it down.
        let etag = try #require(try await b.serverEtag("bo.vcf"))
        _ = try await b.other.put("bo.vcf", card: DAVBook.card("bo", "Bo", "Kim", tel: "+385912222222", extra: "CATEGORIES:Choir\r\n"),
                                  ifMatch: etag)
        let down = try await b.sync()
        #expect(down.updated == 1)
        #expect(try b.person("Bo")?.groups == ["Choir"])
        let found = try ContactSearch(contacts: b.contacts, ledger: LedgerStore(database: b.database))
            .people(try ContactQuery("group:\"running club\"")).people.map(\.firstName)
        #expect(found == ["Ana"])
    }

    @Test func aGroupCardOnTheServerMakesItsMembersAGroup() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("urn:uuid:ana", "Ana", "Horvat", tel: "+385911111111"), ifMatch: nil)
        _ = try await b.other.put("bo.vcf", card: DAVBook.card("bo", "Bo", "Kim", tel: "+385912222222"), ifMatch: nil)
        let group = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:g1\r\nFN:Choir\r\nMEMBER:urn:uuid:ana\r\nEND:VCARD\r\n"
        _ = try await b.other.put("g1.vcf", card: Data(group.utf8), ifMatch: nil)
        let first = try await b.sync()
        #expect(first.added == 2)
        #expect(try b.contacts.count() == 2)
        #expect(try b.person("Ana")?.groups == ["Choir"])
        #expect(try b.person("Bo")?.groups == [])
    }
}
