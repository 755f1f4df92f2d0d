import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// Saved segments on a real herald.sqlite: a query kept under a name, evaluated when used, never containing itself.
@Suite struct SavedSegmentsTests {
    func names(_ s: TempStore, _ text: String) throws -> [String] {
        try ContactSearch(contacts: s.contacts, ledger: s.ledger).people(try ContactQuery(text)).people.map(\.displayName)
    }

    @Test func aSegmentIsEvaluatedWhenUsedSoItFollowsTheBook() throws {
        let s = try TempStore()
        let ana = try s.contacts.insert(person("Ana", "Horvat", phones: ["+385911111111"]))
        let bo = try s.contacts.insert(person("Bo", "Kim", phones: ["+385912222222"]))
        try s.contacts.tag(ids: [try #require(ana.id)], adding: ["Runners"], removing: [])
        let segments = SavedSegments(contacts: s.contacts)
        let saved = try segments.save("Weekend Runners", query: "group:runners")
        #expect(saved.name == "Weekend Runners" && saved.query == "group:runners")
        #expect(try names(s, "segment:\"weekend runners\"") == ["Ana Horvat"])
        // Bo joins the group later: the segment finds him too, without saving it again.
        try s.contacts.tag(ids: [try #require(bo.id)], adding: ["RUNNERS"], removing: [])
        #expect(try names(s, "segment:\"Weekend Runners\"") == ["Ana Horvat", "Bo Kim"])
        #expect(try names(s, "-segment:\"weekend runners\"").isEmpty)
        #expect(try names(s, "bo segment:\"weekend runners\"") == ["Bo Kim"])
        // One segment may use another.
        try segments.save("bo runners", query: "segment:\"weekend runners\" name:bo")
        #expect(try names(s, "segment:\"bo runners\"") == ["Bo Kim"])
        #expect(try segments.list().map(\.name) == ["bo runners", "Weekend Runners"])
        // Saving under the same name (any case) replaces it.
        try segments.save("WEEKEND runners", query: "name:ana")
        #expect(try segments.list().count == 2)
        #expect(try names(s, "segment:\"bo runners\"").isEmpty)
        try segments.delete("bo runners")
        #expect(try segments.list().map(\.name) == ["WEEKEND runners"])
        #expect(throws: SegmentError.unknown("bo runners", known: ["WEEKEND runners"])) { try segments.delete("bo runners") }
    }

    @Test func aSegmentThatUsesItselfIsRefusedWithTheChain() throws {
        let s = try TempStore()
        let segments = SavedSegments(contacts: s.contacts)
        #expect(throws: ContactQueryError.segmentCycle(["a", "a"])) { try segments.save("a", query: "segment:a") }
        try segments.save("a", query: "name:ana")
        try segments.save("b", query: "segment:a")
        #expect(throws: ContactQueryError.segmentCycle(["a", "b", "a"])) { try segments.save("a", query: "segment:b") }
        #expect(throws: ContactQueryError.unknownSegment("zz", known: ["a", "b"])) { try segments.save("c", query: "segment:zz") }
        #expect(throws: SegmentError.emptyQuery) { try segments.save("c", query: "  ") }
        #expect(throws: SegmentError.emptyName) { try segments.save(" \u{1B} ", query: "ana") }
        #expect(throws: ContactQueryError.unknownSegment("zz", known: ["a", "b"])) { _ = try names(s, "segment:zz") }
        // A cycle written into the table by hand (an older Herald, another program) is refused when used, not looped.
        try s.database.write { db in
            try db.execute(sql: "UPDATE saved_segment SET query = 'segment:b' WHERE folded = 'a'")
        }
        #expect(throws: ContactQueryError.segmentCycle(["a", "b", "a"])) { _ = try names(s, "segment:a") }
        let message = ContactQueryError.segmentCycle(["a", "b", "a"]).message
        #expect(message == "segment a uses itself (a → b → a): a segment cannot contain itself")
    }
}
