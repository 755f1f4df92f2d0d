import Testing
@testable import HeraldViewModels

/// `/` search over rows that stay in place: matching ignores case and accents, finding wraps both ways.
@Suite struct ListSearchTests {
    let rows = ["Ana Kovač", "Bob", "ana-2", "Čedo", "Kovacs"]

    @Test func matchesIgnoreCaseAndAccentsAndAnEmptyQueryMatchesNothing() {
        var s = ListSearch()
        #expect(!s.matches("anything"))
        s.set("kovac")
        #expect(s.matches("Ana Kovač") && s.matches("KOVACS") && !s.matches("Bob"))
        #expect(s.count(rows.count) { rows[$0] } == 2)
    }

    @Test func findGoesForwardOrBackwardAndWraps() {
        var s = ListSearch()
        s.set("ana")
        #expect(s.find(from: 0, count: rows.count) { rows[$0] } == 0)
        #expect(s.find(from: 1, count: rows.count) { rows[$0] } == 2)
        #expect(s.find(from: 3, count: rows.count) { rows[$0] } == 0)                  // wraps to the top
        #expect(s.find(from: -1, count: rows.count, backward: true) { rows[$0] } == 2)  // wraps to the bottom
        #expect(s.find(from: 1, count: rows.count, backward: true) { rows[$0] } == 0)
        s.set("zzz")
        #expect(s.find(from: 0, count: rows.count) { rows[$0] } == nil)
        #expect(ListSearch().find(from: 0, count: 0) { _ in "" } == nil)
    }
}
