import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The query language on a real store: fields, "not", phrases and the ledger's states.
@Suite struct ContactSearchTests {
    /// Ana invited, Bob pending, Cid failed, Dora and Ema never invited.
    func store() throws -> TempStore {
        let s = try TempStore()
        let people = [
            person("Ana", "Horvat", phones: ["091 111 1111"], emails: ["ana@acme.hr"], org: "Acme d.o.o."),
            person("Bob", "Anić", phones: ["091 222 2222"], emails: ["bob@example.com"]),
            person("Cid", "Kovač", phones: ["092 333 3333"], org: "Horvat Transport"),
            person("Dora", "de la Cruz", phones: ["091 444 4444"], emails: ["dora@acme.hr"]),
            person("Ema", "Babić", emails: ["ema@example.com"]),
        ].map { try? s.contacts.insert($0) }
        let ids = people.map { $0?.id }
        try s.ledger.enqueue([QueuedRecipient(msisdn: "+385911111111", personId: ids[0], correlator: "a"),
                              QueuedRecipient(msisdn: "+385912222222", personId: ids[1], correlator: "b"),
                              QueuedRecipient(msisdn: "+385923333333", personId: nil, correlator: "c")])
        try s.ledger.recordSent(bulk: BulkRecord(bulkId: "B1", createdAt: s.clock.now(), recipientCount: 3), outcomes: [
            SendOutcome(correlator: "a", messageId: "m1", status: .deliveredToTerminal),
            SendOutcome(correlator: "b", messageId: "m2", status: .messageWaiting),
            SendOutcome(correlator: "c", messageId: "m3", status: .deliveryImpossible),
        ])
        return s
    }

    func names(_ s: TempStore, _ text: String, sort: ContactSort = .firstName) throws -> [String] {
        try ContactSearch(contacts: s.contacts, ledger: s.ledger).people(try ContactQuery(text), sortedBy: sort).people.map(\.firstName)
    }

    @Test func fieldsLookInTheirOwnPlace() throws {
        let s = try store()
        // "horvat" is Ana's last name and the name of Cid's firm: name: and org: tell them apart.
        #expect(try names(s, "horvat") == ["Ana", "Cid"])
        #expect(try names(s, "name:horvat") == ["Ana"])
        #expect(try names(s, "org:horvat") == ["Cid"])
        #expect(try names(s, "email:acme") == ["Ana", "Dora"])
        #expect(try names(s, "phone:+38591") == ["Ana", "Bob", "Dora"])
        #expect(try names(s, "phone:091-444") == ["Dora"])
    }

    @Test func notAndPhrases() throws {
        let s = try store()
        #expect(try names(s, "-email:acme") == ["Bob", "Cid", "Ema"])
        #expect(try names(s, "email:acme -dora") == ["Ana"])
        #expect(try names(s, #"name:"de la cruz""#) == ["Dora"])
        // A name may be written across first and last name.
        #expect(try names(s, #"name:"ana horvat""#) == ["Ana"])
        #expect(try names(s, #"org:"acme d.o.o.""#) == ["Ana"])
    }

    @Test func statesComeFromTheLedger() throws {
        let s = try store()
        #expect(try names(s, "status:invited") == ["Ana"])
        #expect(try names(s, "status:pending") == ["Bob"])
        // Cid's invitation went to his number without his id: it is still his.
        #expect(try names(s, "status:failed") == ["Cid"])
        #expect(try names(s, "status:not-invited") == ["Dora", "Ema"])
        #expect(try names(s, "-status:not-invited phone:+38591") == ["Ana", "Bob"])
        #expect(try names(s, "example status:not-invited") == ["Ema"])
    }

    @Test func orderTotalsAndLimits() throws {
        let s = try store()
        #expect(try names(s, "-status:invited", sort: .lastName) == ["Bob", "Ema", "Dora", "Cid"])
        let page = try ContactSearch(contacts: s.contacts, ledger: s.ledger).people(try ContactQuery("-name:ema"), limit: 2)
        #expect(page.total == 4)
        #expect(page.people.map(\.firstName) == ["Ana", "Bob"])
        // Plain words rank as they always have: a first name before a match inside an email.
        #expect(try names(s, "an -org:transport") == ["Ana", "Bob"])
    }

    @Test func aBookThatIsNotConfiguredIsSaid() throws {
        let s = try store()
        #expect(throws: ContactQueryError.unknownBook("work", known: [])) { try names(s, "book:work") }
    }
}
