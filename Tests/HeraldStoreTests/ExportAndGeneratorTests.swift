import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct ExportAndGeneratorTests {
    func snapshot(_ people: [Person]) -> [String] {
        people.map { p in
            let phones = p.phones.map { "\($0.label ?? "-")=\($0.number.e164 ?? "raw:" + $0.number.raw)" }.joined(separator: ",")
            let emails = p.emails.map(\.address).joined(separator: ",")
            return "\(p.firstName)|\(p.lastName)|\(p.organization ?? "")|\(phones)|\(emails)"
        }.sorted()
    }

    func roundTrip(_ format: ExportFormat) throws {
        let source = try TempStore()
        let report = try source.importer().importPeople(AddressBookGenerator(seed: 7).people(count: 300).map { p in
            var q = p
            q.phones = p.phones.map { LabeledPhone(label: $0.label, number: parserHR.parse($0.number.raw)) }
            return q
        })
        #expect(report.imported > 250)
        let file = source.folder.appendingPathComponent("export.\(format == .csv ? "csv" : "vcf")")
        let written = try ContactExporter(database: source.database).export(format, to: file)
        #expect(written == (try source.contacts.count()))
        let target = try TempStore()
        let back = try target.importer().importContacts(from: file)
        #expect(back.errors.isEmpty)
        #expect(back.imported == written)
        #expect(snapshot(try target.all()) == snapshot(try source.all()))
    }

    @Test func vcardExportImportsBackToTheSamePeople() throws { try roundTrip(.vcard) }
    @Test func csvExportImportsBackToTheSamePeople() throws { try roundTrip(.csv) }

    @Test func vcardWriterFoldsAndEscapes() {
        let p = Person(firstName: "Ana; \"Jr\"", lastName: String(repeating: "Ž", count: 60), formattedName: "A, B\nC")
        let card = VCardWriter.card(p)
        #expect(card.contains("FN:A\\, B\\nC"))
        for line in card.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75) }
    }

    @Test func generatorIsDeterministicAndVaried() throws {
        let a = AddressBookGenerator(seed: 42).people(count: 2000)
        let b = AddressBookGenerator(seed: 42).people(count: 2000)
        #expect(a == b)
        #expect(AddressBookGenerator(seed: 43).people(count: 50) != Array(a.prefix(50)))
        let names = a.map(\.displayName).joined()
        #expect(names.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) })   // Cyrillic
        #expect(names.unicodeScalars.contains { (0x0370...0x03FF).contains($0.value) })   // Greek
        #expect(names.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) })   // CJK
        #expect(names.unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) })   // Arabic
        #expect(names.unicodeScalars.contains { (0x0590...0x05FF).contains($0.value) })   // Hebrew
        #expect(names.unicodeScalars.contains { (0x0900...0x097F).contains($0.value) })   // Devanagari
        let parsed = a.flatMap(\.phones).map { parserHR.parse($0.number.raw) }
        let valid = parsed.filter(\.isValid)
        #expect(Double(valid.count) / Double(parsed.count) > 0.9)
        #expect(valid.count < parsed.count)                                    // some invalid
        #expect(Set(valid.compactMap(\.region)).count >= 8)                    // many countries
        let domains = Dictionary(grouping: a.flatMap(\.emails), by: { $0.domain ?? "" })
        #expect((domains["infobip.com"]?.count ?? 0) > 10)                    // shared company domain
        #expect((domains["gmail.com"]?.count ?? 0) > 10)                      // webmail
        #expect(a.contains { ($0.organization ?? "").isEmpty == false })
    }

    @Test func generatedFileImportsWithoutErrors() throws {
        let s = try TempStore()
        let url = s.folder.appendingPathComponent("gen.vcf")
        try AddressBookGenerator(seed: 1).write(count: 500, format: .vcard, to: url)
        let report = try s.importer().importContacts(from: url)
        #expect(report.errors.isEmpty)
        #expect(report.imported + report.updated == 500)
        let csv = s.folder.appendingPathComponent("gen.csv")
        try AddressBookGenerator(seed: 1).write(count: 500, format: .csv, to: csv)
        let again = try s.importer().importContacts(from: csv)
        #expect(again.imported == 0)        // same UIDs: merged, not duplicated
    }
}
