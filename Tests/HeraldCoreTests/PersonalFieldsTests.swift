import Foundation
import Testing
@testable import HeraldCore

@Suite struct PersonalFieldsTests {
    private func name(_ title: String) -> String? { try? PersonalFields.fieldName(from: title).get() }
    private func xName(_ property: String) -> String? { try? PersonalFields.fieldName(fromVCardProperty: property)?.get() }

    @Test func columnTitlesAndXPropertiesBecomeFieldNames() {
        #expect(name("Shirt size") == "SHIRT_SIZE")
        #expect(name("  t-shirt (EU) ") == "T_SHIRT_EU")
        #expect(name("shirt_size") == "SHIRT_SIZE")
        #expect(name("Veličina majice") == "VELICINA_MAJICE")
        #expect(name("Đak") == "DAK")
        #expect(name("2nd team") == "F_2ND_TEAM")
        #expect(xName("X-SHIRT-SIZE") == "SHIRT_SIZE")
        #expect(xName("x-Shirt-Size") == "SHIRT_SIZE")
        #expect(PersonalFields.vCardProperty(for: "SHIRT_SIZE") == "X-SHIRT-SIZE")
    }

    @Test func namesHeraldFillsItselfAreRefusedNotRenamed() {
        for title in ["First name", "ORG", "Groups", "e-mail" /* E_MAIL is free */, "Receiver name", "custom text", "End user MSISDN"] {
            let result = PersonalFields.fieldName(from: title)
            if title == "e-mail" {
                #expect((try? result.get()) == "E_MAIL")
                continue
            }
            guard case .failure(.reserved(_, let name)) = result else {
                Issue.record("\(title) was not refused: \(result)")
                continue
            }
            #expect(PersonalFields.reserved.contains(name))
            #expect(PersonalFields.NameRefusal.reserved(written: title, name: name).description.contains("a field Herald fills itself"))
        }
        #expect(PersonalFields.fieldName(fromVCardProperty: "X-FIRST-NAME").map { (try? $0.get()) == nil } == true)
        #expect(PersonalFields.fieldName(from: "—") == .failure(.noLetters(written: "—")))
        #expect(PersonalFields.fieldName(from: "Размер") == .failure(.noLetters(written: "Размер")))
        let long = String(repeating: "a", count: 65)
        #expect(PersonalFields.fieldName(from: long) == .failure(.tooLong(written: long, name: long.uppercased())))
        #expect(name(String(repeating: "a", count: 64))?.count == 64)
    }

    @Test func toolBookkeepingPropertiesAreNotFields() {
        for property in ["X-ABUID", "X-ABLabel", "X-ABShowAs", "X-EVOLUTION-FILE-AS", "X-RADICALE-NAME", "X-HERALD-ID",
                         "X-ADDRESSBOOKSERVER-KIND", "X-MOZILLA-HTML", "X-MS-OL-DEFAULT-POSTAL-ADDRESS"] {
            #expect(PersonalFields.fieldName(fromVCardProperty: property) == nil, "\(property)")
        }
        #expect(PersonalFields.fieldName(fromVCardProperty: "TEL") == nil)
        #expect(PersonalFields.fieldName(fromVCardProperty: "X-") == nil)
        #expect(xName("X-TEAM") == "TEAM")
    }

    @Test func valuesOfAPersonAreTheStandardFieldsAndTheCustomOnesThatHaveText() {
        let person = Person(firstName: "Ana", lastName: " ", organization: "Runners d.o.o.",
                            emails: [LabeledEmail(label: "work", address: "ana@example.com"), LabeledEmail(label: nil, address: "b@example.com")],
                            groups: ["Running club", "Team A"],
                            customFields: ["SHIRT_SIZE": "M", "TEAM": "  ", "FIRST_NAME": "shadow"])
        #expect(PersonalFields.values(of: person) == [
            "FIRST_NAME": "Ana", "ORG": "Runners d.o.o.", "GROUPS": "Running club, Team A", "EMAIL": "ana@example.com",
            "SHIRT_SIZE": "M",
        ])
        #expect(PersonalFields.standard == ["FIRST_NAME", "LAST_NAME", "ORG", "GROUPS", "EMAIL"])
        #expect(PersonalFields.values(of: Person()).isEmpty)
    }

    @Test func keptValuesDropControlsAndRefuseOversize() {
        #expect(PersonalFields.keptValue("  L\u{1B}[31m\tXL \n") == "L[31m XL")
        #expect(PersonalFields.keptValue("two\nlines") == "two\nlines")
        #expect(PersonalFields.keptValue(String(repeating: "x", count: 1_000))?.count == 1_000)
        #expect(PersonalFields.keptValue(String(repeating: "x", count: 1_001)) == nil)
    }

    @Test func aPersonWithoutCustomFieldsStillDecodesAndTheyRoundTrip() throws {
        let old = #"{"firstName":"Ana","lastName":"","formattedName":"","phones":[],"emails":[],"hasPhoto":false}"#
        let decoded = try JSONDecoder().decode(Person.self, from: Data(old.utf8))
        #expect(decoded.firstName == "Ana" && decoded.customFields.isEmpty && decoded.groups.isEmpty)
        var p = Person(firstName: "Ana", groups: ["A"], customFields: ["TEAM": "Blue"])
        p.id = 7
        let again = try JSONDecoder().decode(Person.self, from: JSONEncoder().encode(p))
        #expect(again == p)
        #expect(again.hashValue == p.hashValue)
        var other = p
        other.customFields["TEAM"] = "Red"
        #expect(other != p)
    }
}
