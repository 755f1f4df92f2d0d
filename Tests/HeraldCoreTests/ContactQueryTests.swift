import Testing
import HeraldCore

@Suite struct ContactQueryTests {
    typealias Term = ContactQuery.Term

    @Test func plainWordsStayPlain() throws {
        let query = try ContactQuery("ana  horvat")
        #expect(query.plainWords == "ana horvat")
        #expect(query.filters.isEmpty)
        // A number written with a dash or a colon inside a word is still a plain word.
        #expect(try ContactQuery("+385 91-123").filters.isEmpty)
        #expect(try ContactQuery("http://example.com").plainWords == "http://example.com")
        #expect(try ContactQuery("   ").isEmpty)
    }

    @Test func fieldsNotsAndQuotes() throws {
        let query = try ContactQuery(#"name:"Ana Marija" -org:acme phone:+38591 EMAIL:example.com -spam status:not-invited"#)
        #expect(query.terms == [
            Term(field: .name, value: "Ana Marija"),
            Term(field: .org, value: "acme", negated: true),
            Term(field: .phone, value: "+38591"),
            Term(field: .email, value: "example.com"),
            Term(field: .any, value: "spam", negated: true),
            Term(field: .status, value: "not-invited", state: .notInvited),
        ])
        #expect(query.filters.count == 6)
        #expect(query.plainWords.isEmpty)
        #expect(try ContactQuery(#""de la" cruz"#).terms == [Term(field: .any, value: "de la"), Term(field: .any, value: "cruz")])
    }

    @Test func aTermBeingTypedIsReadAsFarAsItGoes() throws {
        #expect(try ContactQuery("name:").isEmpty)
        #expect(try ContactQuery(#"org:"Acme d"#).terms == [Term(field: .org, value: "Acme d")])
        #expect(try ContactQuery("-").terms == [Term(field: .any, value: "-")])
        // A minus before a digit is part of a number, not a "not".
        #expect(try ContactQuery("-5").terms == [Term(field: .any, value: "-5")])
    }

    @Test func badValuesSayWhatToWrite() {
        #expect(throws: ContactQueryError.unknownStatus("maybe")) { try ContactQuery("status:maybe") }
        #expect(throws: ContactQueryError.notANumber("ana")) { try ContactQuery("phone:ana") }
        #expect(ContactQueryError.unknownStatus("maybe").message.contains("status:not-invited"))
        #expect(ContactQueryError.unknownBook("work", known: []).message.contains("[[books]]"))
    }

    @Test func statusNamesAsTyped() throws {
        #expect(try ContactQuery("status:failed").terms.first?.state == .impossible)
        #expect(try ContactQuery("status:impossible").terms.first?.state == .impossible)
        #expect(try ContactQuery(#"status:"not invited""#).terms.first?.state == .notInvited)
        #expect(try ContactQuery("Status:PENDING").terms.first?.state == .pending)
    }

    @Test func highlightsWhatIsLookedForInNames() {
        #expect(ContactQuery.highlightWords("ana -horvat status:invited org:acme") == "ana acme")
        #expect(ContactQuery.highlightWords("status:maybe ana") == "status:maybe ana")
    }
}
