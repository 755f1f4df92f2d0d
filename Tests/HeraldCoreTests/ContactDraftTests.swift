import HeraldCore
import Testing

/// The readable card `contacts edit` opens in $EDITOR, and the values `contacts add|edit` take.
@Suite struct ContactDraftTests {
    let parser = try! PhoneNumberParser(defaultRegion: "HR")

    func ana() -> Person {
        Person(id: 7, firstName: "Ana", lastName: "Kovač", organization: "Acme",
               phones: [LabeledPhone(label: "mobile", number: parser.parse("+385 91 234 5678"))],
               emails: [LabeledEmail(label: "work", address: "ana@acme.hr")], note: "met at the fair\nlikes tea")
    }

    @Test func aCardReadBackUnchangedIsTheSamePersonWithItsLabelsAndNoteLines() throws {
        let draft = ContactDraft(ana())
        let text = draft.cardText
        #expect(text.contains("Phone: mobile: +385 91 234 5678\n"))
        #expect(text.contains("Note: met at the fair\nNote: likes tea\n"))
        let read = try ContactDraft.parse(cardText: text)
        #expect(read == draft)
        let person = read.applied(to: ana(), parser: parser)
        #expect(person == ana())
    }

    @Test func aNewCardNamesTheBooksAndItsBookLineIsRead() throws {
        #expect(ContactDraft().newCardText(books: []) == ContactDraft().cardText)
        let text = ContactDraft().newCardText(books: ["personal", "work"]).replacingOccurrences(of: "First name: \n", with: "First name: Zora\n")
        #expect(text.hasSuffix("# Book: one of personal, work; empty for a contact of no book.\nBook: personal\n"))
        #expect(try ContactDraft.parse(cardText: text).book == "personal")
        #expect(try ContactDraft.parse(cardText: text.replacingOccurrences(of: "Book: personal", with: "Book: work")).book == "work")
        #expect(try ContactDraft.parse(cardText: text.replacingOccurrences(of: "Book: personal", with: "Book:")).book == nil)
    }

    @Test func anEditedCardChangesFieldsAddsNumbersAndKeepsTheStoredReadingOfAnUnchangedOne() throws {
        var text = ContactDraft(ana()).cardText
        text = text.replacingOccurrences(of: "Organization: Acme", with: "Organization: Acme Ltd")
        text += "Phone: work: 01 2345 678\nEmail: ana@home.example\r\n"
        let person = try ContactDraft.parse(cardText: text).applied(to: ana(), parser: parser)
        #expect(person.organization == "Acme Ltd")
        #expect(person.phones.map(\.number.e164) == ["+385912345678", "+38512345678"])
        #expect(person.phones.map(\.label) == ["mobile", "work"])
        #expect(person.emails.map(\.address) == ["ana@acme.hr", "ana@home.example"])
        #expect(person.emails.last?.label == nil)
    }

    @Test func everyProblemIsNamedWithItsLineAndFieldAndNothingIsRead() {
        let text = """
            # a comment
            First name: Ana
            Organisation: Acme
            Email: not-an-address
            Phone: mobile: no digits
            just words
            Last name: Evil\u{1B}[2J
            """
        #expect {
            _ = try ContactDraft.parse(cardText: text)
        } throws: { error in
            let problems = (error as? ContactDraft.ProblemList)?.problems ?? []
            return problems.map(\.line) == [3, 4, 5, 6, 7]
                && problems[0].field == "Organisation" && problems[0].reason.contains("not a field of a contact")
                && problems[1].reason == "\"not-an-address\" is not an email address (name@example.com)"
                && problems[2].reason == "\"no digits\" has no digits"
                && problems[3].reason.contains("has no field name")
                && problems[4].reason.contains("U+001B")
        }
    }

    @Test func aCardWithNothingToKnowThePersonByIsRefusedAndLimitsHold() {
        #expect(throws: ContactDraft.ProblemList.self) { try ContactDraft.parse(cardText: "First name: \nNote: only a note\n") }
        #expect(throws: ContactDraft.Problem.self) { try ContactDraft.text(String(repeating: "a", count: 1025), "Name") }
        #expect(throws: ContactDraft.Problem.self) { try ContactDraft.phone(String(repeating: "1", count: 65)) }
        var many = ContactDraft()
        many.phones = (0..<101).map { ContactDraft.Labeled(label: nil, value: "+38591000\($0)") }
        #expect(throws: ContactDraft.Problem.self) { try many.checkTotals(line: 0) }
    }

    @Test func aLabelIsWhatComesBeforeAColonOnlyWhenItIsNotPartOfTheValue() throws {
        #expect(try ContactDraft.phone("Work Mobile: +385 91 1").label == "work mobile")
        #expect(try ContactDraft.phone("+385 91 234 5678").label == nil)
        #expect(try ContactDraft.email("home: ana@x.hr") == ContactDraft.Labeled(label: "home", value: "ana@x.hr"))
        #expect(try ContactDraft.email("ana@x.hr").label == nil)
    }
}
