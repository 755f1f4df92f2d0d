import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// The fast paths of search (narrowing on the next keystroke, counting-sort ranking) must answer
/// exactly what a fresh, complete search answers.
@Suite struct SearchSpeedTests {
    /// A generated book of `count` people in a fresh store.
    static func book(_ count: Int) throws -> TempStore {
        let s = try TempStore()
        let file = s.folder.appendingPathComponent("book.vcf")
        try AddressBookGenerator(seed: 7).write(count: count, format: .vcard, to: file)
        let report = try s.importer().importContacts(from: file)
        #expect(report.imported == count)
        return s
    }

    /// Every hit of `query` from a store that has never searched before.
    func fresh(_ s: TempStore, _ query: String, sort: ContactSort) throws -> [SearchHit] {
        try ContactStore(database: s.database).searchHits(query, sortedBy: sort)?.hits ?? []
    }

    @Test func oneLetterAnswersWorkedOutAheadAreWhatAFreshSearchFinds() throws {
        let s = try Self.book(3000)
        let warmed = ContactStore(database: s.database)
        for sort in ContactSort.allCases { try warmed.warmUpSearch(sortedBy: sort) }
        for letter in "ahjmz39" {
            for sort in ContactSort.allCases {
                let expected = try fresh(s, String(letter), sort: sort)
                let answered = try warmed.searchHits(String(letter), sortedBy: sort)
                #expect(answered?.total == expected.count && answered?.hits == expected, "\(letter) \(sort)")
                #expect(try warmed.searchHits(String(letter), sortedBy: sort, limit: 7)?.hits == Array(expected.prefix(7)))
                // The next keystroke narrows correctly from an answer worked out ahead.
                let next = String(letter) + "a"
                #expect(try warmed.searchHits(next, sortedBy: sort)?.hits == (try fresh(s, next, sort: sort)), "\(next) \(sort)")
            }
        }
    }

    @Test func typingLetterByLetterFindsWhatAFreshSearchFinds() throws {
        let s = try Self.book(3000)
        let typed = ContactStore(database: s.database)
        let sequences = [["h", "ho", "hor", "horv", "horvat"], ["a", "an", "ana", "ana ", "ana h", "ana ho", "ana h", "ana"],
                         ["3", "38", "385", "385 9", "385 98"], ["и", "ив", "ива", "иван"], ["j", "jo", "jo ", "jo s", "jo sm"],
                         ["g", "gm", "gma", "gmail", "gmail.c"], ["zz", "zz-", "zz-n"], ["m", "mü", "mül", "müller", "mülle"]]
        for sequence in sequences {
            for query in sequence {
                for sort in ContactSort.allCases {
                    let incremental = try typed.searchHits(query, sortedBy: sort)
                    let expected = try fresh(s, query, sort: sort)
                    #expect(incremental?.total == expected.count, "\(query) \(sort)")
                    #expect(incremental?.hits == expected, "\(query) \(sort)")
                }
            }
        }
    }

    @Test func aPageIsTheStartOfTheWholeRanking() throws {
        let s = try Self.book(2000)
        for query in ["a", "an", "ivan", "gmail", "98", "ana h", "e"] {
            for sort in ContactSort.allCases {
                let all = try #require(try s.contacts.searchHits(query, sortedBy: sort))
                let page = try #require(try s.contacts.searchHits(query, sortedBy: sort, limit: 25))
                #expect(page.total == all.total)
                #expect(page.hits == Array(all.hits.prefix(25)), "\(query) \(sort)")
                #expect(all.hits.count == all.total)
                // Best first.
                #expect(zip(all.hits, all.hits.dropFirst()).allSatisfy { $0.score >= $1.score }, "\(query)")
            }
        }
    }

    @Test func equalScoresFollowTheChosenNameOrder() throws {
        let s = try Self.book(2000)
        for sort in ContactSort.allCases {
            let hits = try #require(try s.contacts.searchHits("a", sortedBy: sort)).hits
            let people = try s.contacts.people(ids: hits.map(\.personId))
            #expect(people.count == hits.count)
            let keys = people.map { p in Array(PersonRows.keys(for: p).let { sort == .firstName ? $0.sortFirst : $0.sortLast }.utf8) }
            var previous: (score: Int, key: [UInt8], id: Int64)?
            for (hit, key) in zip(hits, keys) {
                if let previous, previous.score == hit.score {
                    #expect(previous.key.lexicographicallyPrecedes(key) || previous.key == key,
                            "\(sort): \(String(decoding: previous.key, as: UTF8.self)) before \(String(decoding: key, as: UTF8.self))")
                }
                previous = (hit.score, key, hit.personId)
            }
        }
    }

    @Test func aChangeToTheBookIsSeenByTheNextKeystroke() throws {
        let s = try Self.book(500)
        let store = s.contacts
        let before = try #require(try store.searchHits("zzq")).total
        #expect(before == 0)
        _ = try store.searchHits("zz")
        try store.insert(person("Zzqa", "Newcomer"))
        #expect(try store.searchHits("zzq")?.total == 1)
        #expect(try store.search("zzqa").people.map(\.lastName) == ["Newcomer"])
    }
}

private extension PersonRows.Keys {
    func `let`<T>(_ body: (Self) -> T) -> T { body(self) }
}
