import Foundation
import HeraldTestKit
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

    @Test func phoneKeysHoldEveryFormOnce() {
        func key(_ phones: [String]) -> String { PersonRows.keys(for: person("Ana", "Horvat", phones: phones)).phoneKey }
        #expect(key(["+385 98 123 4567"]) == "385981234567 0981234567")
        #expect(key(["098 123 4567"]) == "385981234567 0981234567")
        #expect(key(["00385 98 123 4567"]) == "385981234567 0981234567 00385981234567")
        #expect(key(["+1 415 555 0132", "12"]) == "14155550132 04155550132 12")
        #expect(key(["tel:+385-98-123-4567", "ab"]) == "385981234567 0981234567 ")
        #expect(key([]) == "")
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

    /// Every single-term query matches exactly the people whose names, emails or numbers hold it: the
    /// index's byte searches (memchr on the rarest byte, sixteen digit positions at a time) checked against a
    /// plain scan, with needles cut from the data so they fall at every offset, and the same query asked twice.
    @Test func searchesMatchAPlainScanOfEveryPerson() throws {
        let s = try TempStore()
        let people = AddressBookGenerator(seed: 7).people(count: 400)
        for p in people { try s.contacts.insert(p) }
        let index = try s.database.pool.read { try SearchIndex.build($0) }
        func entry(_ buffer: [UInt8], _ starts: [Int32], _ e: Int) -> ArraySlice<UInt8> {
            buffer[Int(starts[e])..<Int(starts[e + 1]) - 1]
        }
        func holds(_ hay: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
            guard hay.count >= needle.count else { return false }
            return (hay.startIndex...(hay.endIndex - needle.count)).contains { hay[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        var rng = SeededRandom(seed: 11)
        var queries: [String] = []
        for _ in 0..<150 {
            let e = rng.int(0..<index.count)
            let digits = entry(index.digits, index.digitStart, e), text = entry(index.text, index.textStart, e)
            for (source, isDigits) in [(digits, true), (text, false)] where source.count >= 6 {
                let length = rng.int(2..<7)
                let at = source.startIndex + rng.int(0..<(source.count - length + 1))
                let cut = Array(source[at..<at + length])
                let query = String(decoding: cut, as: UTF8.self)
                if query.allSatisfy({ isDigits ? $0.isASCII && $0.isNumber : $0.isLetter }) { queries.append(query) }
            }
        }
        queries += ["00", "99", "3859", "zq", "ana"]
        for query in queries {
            let needle = Array(query.utf8)
            let digitsOnly = needle.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let expected = Set((0..<index.count).filter { e in
                holds(entry(index.text, index.textStart, e), needle) || (digitsOnly && holds(entry(index.digits, index.digitStart, e), needle))
            }.map { index.ids[$0] })
            let found = index.search(query, byLastName: false, limit: nil)
            #expect(found.total == expected.count, "\(query)")
            #expect(Set(found.hits.map(\.personId)) == expected, "\(query)")
            let again = index.search(query, byLastName: false, limit: nil)
            #expect(again.hits == found.hits, "\(query) asked twice")
        }
    }
}
