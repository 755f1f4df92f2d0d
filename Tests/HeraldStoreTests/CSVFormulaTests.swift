import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// CSV export is safe to open in a spreadsheet (OWASP's CSV injection rule): a field that starts with `=`, `+`, `-`,
/// `@`, a tab or a carriage return gets a leading `'`, so it shows as text and never runs; a number written strictly
/// in E.164 stays as it is; Herald's own import takes the `'` off again.
@Suite struct CSVFormulaTests {
    static let writer = CSVWriter(phoneColumns: 2, emailColumns: 1)

    /// The cells of one written row (split at commas: no field here holds one).
    static func cells(_ p: Person) -> [String] {
        let row = writer.row(p)
        #expect(row.hasSuffix("\r\n"))
        return String(row.unicodeScalars.dropLast(2)).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aFieldASpreadsheetWouldRunIsWrittenAsText() {
        let p = Person(uid: "\tTab", firstName: "=HYPERLINK(\"http://evil.example\")", lastName: "@SUM(A1)", formattedName: "-2+3",
                       organization: "+cmd|' /C calc'!A0",
                       phones: [LabeledPhone(label: "-mobile", number: parserHR.parse("+385911234567")),
                                LabeledPhone(label: nil, number: parserHR.parse("+1 (555)"))],
                       emails: [LabeledEmail(label: "@work", address: "ana@example.com")])
        let c = Self.cells(p)
        #expect(c[0] == "\"'=HYPERLINK(\"\"http://evil.example\"\")\"", "quoted for its quotes, guarded inside: \(c)")
        #expect(Array(c[1...4]) == ["'@SUM(A1)", "'-2+3", "'+cmd|' /C calc'!A0", "'\tTab"], "\(c)")
        #expect(Array(c[5...6]) == ["'@work", "ana@example.com"])
        // The valid number is E.164 and stays a number; the one that is not gets the quote like any other text.
        #expect(Array(c[7...10]) == ["'-mobile", "+385911234567", "", "'+1 (555)"], "\(c)")
    }

    @Test func aCarriageReturnFirstIsQuotedAndNeutralised() {
        let field = CSVWriter.field("\r=1+1")
        #expect(field == "\"'\r=1+1\"")
        #expect(CSVWriter.field("plain") == "plain")
        #expect(CSVWriter.field("+") == "'+")
        #expect(CSVWriter.field("+3859112345678901") == "'+3859112345678901", "more than 15 digits is not E.164")
    }

    @Test func heraldsOwnImportReadsTheGuardedFieldsBack() throws {
        let source = try TempStore()
        let people = [
            Person(firstName: "=1+2", lastName: "-Horvat", formattedName: "=1+2 -Horvat", organization: "@Acme",
                   phones: [LabeledPhone(label: "mobile", number: parserHR.parse("+385911234567"))],
                   emails: [LabeledEmail(label: nil, address: "ana@example.com")]),
            // Already starting with a quote before a formula character: the quote is the person's and comes back too.
            Person(firstName: "'=x", lastName: "Kovač", formattedName: "'=x Kovač", organization: "+Plus d.o.o.",
                   phones: [LabeledPhone(label: "-", number: parserHR.parse("+385981234567"))]),
        ]
        #expect(try source.importer().importPeople(people).imported == 2)
        let file = source.folder.appendingPathComponent("export.csv")
        try ContactExporter(database: source.database).export(.csv, to: file)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("'=1+2,'-Horvat,'=1+2 -Horvat,'@Acme"), "\(text)")
        #expect(text.contains("+385911234567") && !text.contains("'+385911234567"), "\(text)")

        let target = try TempStore()
        let back = try target.importer().importContacts(from: file)
        #expect(back.errors.isEmpty && back.imported == 2, "\(back.errors)")
        func fields(_ store: TempStore) throws -> [String] {
            try store.all().map { p in
                ([p.firstName, p.lastName, p.formattedName, p.organization ?? ""]
                    + p.phones.map { "\($0.label ?? "")=\($0.number.e164 ?? $0.number.raw)" }
                    + p.emails.map(\.address)).joined(separator: "|")
            }.sorted()
        }
        #expect(try fields(target) == (try fields(source)))
    }
}
