import Foundation
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct SearchTests {
    func store(_ people: [Person]) throws -> TempStore {
        let s = try TempStore()
        for p in people { try s.contacts.insert(p) }
        return s
    }

    @Test func ignoresCaseAndDiacritics() throws {
        let s = try store([person("Đurđa", "Šimić"), person("Zoë", "Müller"), person("Ivan", "Horvat")])
        #expect(try s.contacts.search("simic").people.map(\.firstName) == ["Đurđa"])
        #expect(try s.contacts.search("ŠIMIĆ").people.map(\.firstName) == ["Đurđa"])
        #expect(try s.contacts.search("durda").people.map(\.firstName) == ["Đurđa"])
        #expect(try s.contacts.search("zoe mull").people.map(\.firstName) == ["Zoë"])
        #expect(try s.contacts.search("nobody").total == 0)
    }

    @Test func transliteratesOtherScripts() throws {
        let s = try store([person("Иван", "Петров"), person("Ελένη", "Παπαδοπούλου")])
        #expect(try s.contacts.search("petrov").people.map(\.firstName) == ["Иван"])
        #expect(try s.contacts.search("Петр").people.map(\.firstName) == ["Иван"])
        #expect(try s.contacts.search("eleni").total + s.contacts.search("elene").total >= 1)
    }

    @Test func ranksPrefixAboveSubstringAndNamesAboveEmail() throws {
        let s = try store([
            person("Marija", "Anić"),                                  // no match: "anic" is not "ana"
            person("Ivana", "Horvat"),                                 // substring of first name
            person("Petar", "Perić", emails: ["ana.b@example.com"]),   // prefix of email
            person("Ana", "Kovač"),                                    // exact first name
            person("Anamarija", "Babić"),                              // prefix of first name
        ])
        let names = try s.contacts.search("ana").people.map(\.firstName)
        #expect(names.first == "Ana")
        let idx = { (n: String) in names.firstIndex(of: n) ?? 99 }
        #expect(idx("Anamarija") < idx("Ivana"))
        #expect(idx("Anamarija") < idx("Petar"))
        #expect(idx("Petar") < idx("Ivana"))   // start of an email part above a substring of a name
        #expect(names.count == 4)
    }

    @Test func countIsAllMatchesWhileLimitCutsThePage() throws {
        let s = try store((0..<30).map { person("Ana\($0)", "Horvat") })
        let page = try s.contacts.search("horvat", limit: 5)
        #expect(page.total == 30)
        #expect(page.people.count == 5)
        // Same score: name order.
        #expect(page.people.map(\.firstName) == ["Ana0", "Ana1", "Ana10", "Ana11", "Ana12"])
    }

    @Test func digitsFindPhoneNumbersInEveryForm() throws {
        let s = try store([person("Ana", "Horvat", phones: ["+385 98 123 4567"]),
                           person("Bob", "Smith", phones: ["+1 415 555 0132"]),
                           person("Cia", "Marić", phones: ["091 765 4321"])])
        #expect(try s.contacts.search("0981").people.map(\.firstName) == ["Ana"])   // national form
        #expect(try s.contacts.search("38598").people.map(\.firstName) == ["Ana"])  // E.164 digits
        #expect(try s.contacts.search("+385 98").people.map(\.firstName) == ["Ana"])
        #expect(try s.contacts.search("4567").people.map(\.firstName) == ["Ana"])   // digits inside
        #expect(try s.contacts.search("415-555").people.map(\.firstName) == ["Bob"])
        #expect(try s.contacts.search("3859176").people.map(\.firstName) == ["Cia"])
    }

    @Test func multiWordQueriesNeedEveryWord() throws {
        let s = try store([person("Ana", "Horvat"), person("Ana", "Kovač"), person("Marko", "Horvat")])
        #expect(try s.contacts.search("ana hor").people.map(\.lastName) == ["Horvat"])
        #expect(try s.contacts.search("hor ana").people.map(\.firstName) == ["Ana"])
        #expect(try s.contacts.search("  ").total == 3)
    }

    @Test func sortsTiesByLastNameWhenAsked() throws {
        let s = try store([person("Ana", "Zec"), person("Ana", "Babić"), person("Ana", "Marić")])
        #expect(try s.contacts.search("ana", sortedBy: .lastName).people.map(\.lastName) == ["Babić", "Marić", "Zec"])
    }

    @Test func searchesOrganisation() throws {
        let s = try store([person("Ana", "Horvat", org: "Zagrebačka pivovara"), person("Ivo", "Ivić")])
        #expect(try s.contacts.search("zagrebacka").people.map(\.firstName) == ["Ana"])
    }
}
