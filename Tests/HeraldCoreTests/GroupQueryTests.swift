import Testing
import HeraldCore

@Suite struct GroupQueryTests {
    typealias Term = ContactQuery.Term

    @Test func groupAndSegmentTermsAreReadInAnyCaseWithQuotesAndNots() throws {
        let query = try ContactQuery(#"GROUP:"Running Club" -group:choir Segment:runners ana"#)
        #expect(query.terms == [
            Term(field: .group, value: "Running Club"),
            Term(field: .group, value: "choir", negated: true),
            Term(field: .segment, value: "runners"),
            Term(field: .any, value: "ana"),
        ])
        #expect(query.plainWords == "ana")
        #expect(query.filters.count == 3)
        #expect(try ContactQuery("group:").isEmpty)
        // Not words to mark in the names a list shows.
        #expect(ContactQuery.highlightWords("group:choir ana") == "ana")
    }

    @Test func namesAreQuotedWhenTheyHaveSpaces() {
        #expect(ContactQuery.quoted("runners") == "runners")
        #expect(ContactQuery.quoted("weekend runners") == "\"weekend runners\"")
    }

    @Test func groupNamesFoldAsNamesDo() {
        #expect(PersonGroups.fold("Trčanje  SUBOTA") == PersonGroups.fold("trcanje subota"))
        #expect(PersonGroups.fold("Đurđevac") == "durdevac")
        #expect(PersonGroups.unique(["Choir", " choir ", "", "Čitanje", "citanje", "Runners"]) == ["Choir", "Čitanje", "Runners"])
        #expect(!PersonGroups.clean("a\u{1B}[31mb").contains("\u{1B}"))
        #expect(PersonGroups.edited(["Choir", "Runners"], adding: ["runners", "Zbor"], removing: ["CHOIR"]) == ["Runners", "Zbor"])
    }

    @Test func segmentErrorsSayWhatToUse() {
        #expect(ContactQueryError.unknownSegment("x", known: []).message.contains("no segments are saved"))
        #expect(ContactQueryError.unknownSegment("x", known: ["a b", "c"]).message
                == #"segment:x is not a saved segment: use segment:"a b", segment:c"#)
    }
}
