import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// Inputs shaped to make an importer slow (huge lines, folds, cards, rows, headers, quotes): each
/// is cut at a stated limit, reported with its file and line, and the good cards around it import.
/// Times are only a guard against hangs.
@Suite struct ImportLimitsTests {
    static let good1 = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Good One\r\nTEL:+385 91 000 0001\r\nEND:VCARD\r\n"
    static let good2 = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Good Two\r\nTEL:+385 91 000 0002\r\nEND:VCARD\r\n"

    /// Imports `text` and checks it took less than `seconds`.
    func timedImport(_ s: TempStore, _ name: String, _ text: String, format: ImportFormat = .auto,
                     seconds: Double = 10) throws -> ImportReport {
        let url = try s.write(name, text)
        let start = Date()
        let report = try s.importer().importContacts(from: url, format: format)
        #expect(Date().timeIntervalSince(start) < seconds, "\(name) took too long")
        return report
    }

    func names(_ s: TempStore) throws -> Set<String> { Set(try s.all().map(\.formattedName)) }

    // MARK: vCard

    @Test func aCardWithThousandsOfNumbersKeepsTheFirstHundred() throws {
        let s = try TempStore()
        let tels = (0..<1500).map { "TEL:+385 98 \(2_000_000 + $0)\r\n" }.joined()
        let report = try timedImport(s, "tels.vcf", Self.good1 + "BEGIN:VCARD\r\nFN:Many Numbers\r\n" + tels + "END:VCARD\r\n" + Self.good2)
        #expect(report.imported == 3)
        let many = try #require(try s.all().first { $0.formattedName == "Many Numbers" })
        #expect(many.phones.count == FieldLimits.phonesPerPerson)
        #expect(many.phones.last?.number.e164 == "+385982000099")
        let issue = try #require(report.errors.first)
        #expect(issue.line == 7 + 1 + FieldLimits.phonesPerPerson)     // the first TEL not kept
        #expect(issue.message.contains("1500 phone numbers: kept the first 100"))
    }

    @Test func aCardWithThousandsOfEmailsKeepsTheFirstHundred() throws {
        let s = try TempStore()
        let emails = (0..<1500).map { "EMAIL:p\($0)@example.com\r\n" }.joined()
        let report = try timedImport(s, "emails.vcf", "BEGIN:VCARD\r\nFN:Many Mails\r\n" + emails + "END:VCARD\r\n" + Self.good2)
        #expect(report.imported == 2)
        #expect(try s.all().first { $0.formattedName == "Many Mails" }?.emails.count == FieldLimits.emailsPerPerson)
        #expect(report.errors.map(\.message).contains { $0.contains("1500 emails: kept the first 100") })
    }

    @Test func aCardWithTooManyLinesIgnoresTheRestUpToItsEnd() throws {
        let s = try TempStore()
        let notes = (0..<(FieldLimits.propertiesPerCard + 500)).map { "NOTE:n\($0)\r\n" }.joined()
        // A TEL past the limit is not read; END:VCARD still closes the card.
        let text = Self.good1 + "BEGIN:VCARD\r\nFN:Long Card\r\n" + notes + "TEL:+385 98 555 5555\r\nEND:VCARD\r\n" + Self.good2
        let report = try timedImport(s, "long.vcf", text)
        #expect(report.imported == 3)
        #expect(try names(s) == ["Good One", "Long Card", "Good Two"])
        #expect(try s.all().first { $0.formattedName == "Long Card" }?.phones.isEmpty == true)
        #expect(report.errors.count == 1)
        #expect(report.errors[0].line == 6 + FieldLimits.propertiesPerCard + 1)
        #expect(report.errors[0].message.contains("more than \(FieldLimits.propertiesPerCard) lines"))
    }

    @Test func aTooLongCardWithoutEndStopsAtTheNextBegin() throws {
        let s = try TempStore()
        let notes = String(repeating: "NOTE:x\r\n", count: FieldLimits.propertiesPerCard + 10)
        let report = try timedImport(s, "open.vcf", "BEGIN:VCARD\r\nFN:Never Closed\r\n" + notes + Self.good2)
        #expect(report.imported == 1)
        #expect(try names(s) == ["Good Two"])
        #expect(report.errors.contains { $0.line == 1 && $0.message.contains("END:VCARD is missing before line") })
    }

    @Test func aPropertyWithThousandsOfParametersKeepsTheFirstOnes() throws {
        let s = try TempStore()
        let params = String(repeating: ";TYPE=CELL", count: 20_000)
        let report = try timedImport(s, "params.vcf", "BEGIN:VCARD\r\nFN:Params\r\nTEL\(params):+385 98 123 4567\r\nEND:VCARD\r\n" + Self.good2)
        #expect(report.imported == 2)
        let p = try #require(try s.all().first { $0.formattedName == "Params" })
        #expect(p.phones.map(\.number.e164) == ["+385981234567"])
        #expect(p.phones.first?.label == "mobile")
        #expect(report.errors.map(\.line) == [3])
        #expect(report.errors[0].message.contains("20000 parameters: kept the first \(FieldLimits.parametersPerProperty)"))
    }

    @Test func aFoldedPropertyOfManyThousandLinesIsReadAndCut() throws {
        let s = try TempStore()
        let folds = String(repeating: " more text\r\n", count: 100_000)
        let report = try timedImport(s, "fold.vcf", Self.good1 + "BEGIN:VCARD\r\nFN:Folded\r\n" + folds + "TEL:+385 98 765 4321\r\nEND:VCARD\r\n" + Self.good2)
        #expect(report.imported == 3)
        let p = try #require(try s.all().first { $0.formattedName.hasPrefix("Folded") })
        #expect(p.formattedName.count == FieldLimits.text)
        #expect(p.phones.map(\.number.e164) == ["+385987654321"])
        #expect(report.errors.map(\.line) == [7])
        #expect(report.errors[0].message.contains("FN is 900006 characters long"))
    }

    @Test func lineAndFoldLimitsCutOneLineAndReadOn() throws {
        // The same limit the importer applies at 8 MB, made small: a line without a newline, and
        // a folded line that grows past it.
        var input = Array("BEGIN:VCARD\r\nFN:Cut\r\nNOTE:".utf8) + Array(repeating: UInt8(ascii: "x"), count: 5000)
        input += Array("\r\nORG:a\r\n".utf8) + Array(String(repeating: " bcdefgh\r\n", count: 500).utf8)
        input += Array("END:VCARD\r\nBEGIN:VCARD\r\nFN:After\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:".utf8)
        input += Array(repeating: UInt8(ascii: "y"), count: 50_000)    // no newline at all
        var reader = VCardReader(lines: LineReader(ByteStream(bytes: input, chunkSize: 333), maxLineBytes: 1000),
                                 parser: PhoneParseCache(parser: parserHR))
        var records: [SourceRecord] = []
        while let r = try reader.next() { records.append(r) }
        #expect(records.count == 3)
        guard case .person(let cut, _, let issues) = records[0] else { Issue.record("not a person"); return }
        #expect(cut.formattedName == "Cut")
        #expect(cut.organization?.utf8.count == 1000 - 4)
        #expect(issues.map(\.line) == [3, 4])
        #expect(issues.allSatisfy { $0.message.contains("longer than 1000 bytes: cut") })
        guard case .person(let after, _, _) = records[1] else { Issue.record("not a person"); return }
        #expect(after.formattedName == "After")
        guard case .failure(_, let message) = records[2] else { Issue.record("not a failure"); return }
        #expect(message.contains("END:VCARD is missing"))
    }

    @Test func manyRevisionsAreReadWithOneParserPerImport() throws {
        let s = try TempStore()
        let revs = String(repeating: "REV:2024-03-01T10:00:00Z\r\n", count: 1500)
        let report = try timedImport(s, "rev.vcf", "BEGIN:VCARD\r\nFN:Revised\r\n" + revs + "REV:2025-01-02\r\nEND:VCARD\r\n")
        #expect(report.imported == 1)
        #expect(report.errors.isEmpty)
        let p = try #require(try s.all().first)
        #expect(p.revision == ISO8601DateFormatter().date(from: "2025-01-02T00:00:00Z"))
        let dates = RevisionDates()
        let fractional = try #require(dates.date(" 2024-03-01T10:00:00.250Z "))
        #expect(abs(fractional.timeIntervalSince1970 - 1_709_287_200.25) < 0.001)
        #expect(dates.date("20240301T100000Z") == ISO8601DateFormatter().date(from: "2024-03-01T10:00:00Z"))
        #expect(dates.date("yesterday") == nil)
        #expect(dates.date(String(repeating: "2", count: 10_000)) == nil)
    }

    @Test func structuredValuesOfMillionsOfSeparatorsAreSplitOnlyAsFarAsKept() throws {
        let s = try TempStore()
        let semis = String(repeating: ";", count: 1_000_000)
        let report = try timedImport(s, "semis.vcf", "BEGIN:VCARD\r\nN:Family;Given\(semis)\r\nORG:\(semis)\r\nEND:VCARD\r\n"
                                     + "BEGIN:VCARD\r\nFN:Org\r\nORG:Acme;\(semis)Lab\r\nEND:VCARD\r\n" + Self.good2)
        #expect(report.imported == 3)
        let people = try s.all()
        let p = try #require(people.first { $0.lastName == "Family" })
        #expect(p.firstName == "Given")
        #expect(p.organization == nil)
        #expect(people.first { $0.formattedName == "Org" }?.organization == "Acme")
    }

    @Test func mergingIntoOnePersonStopsAtTheLimitAndSaysSo() throws {
        let s = try TempStore()
        // Each card shares one number with the one before and brings 99 new ones.
        var text = ""
        for c in 0..<4 {
            let tels = (0..<100).map { "TEL:+385 98 \(3_000_000 + c * 99 + $0)\r\n" }.joined()
            text += "BEGIN:VCARD\r\nFN:Chain\(c)\r\n\(tels)END:VCARD\r\n"
        }
        let report = try timedImport(s, "chain.vcf", text)
        #expect(report.imported + report.updated == 4)
        let people = try s.all()
        #expect(people.allSatisfy { $0.phones.count <= FieldLimits.phonesPerPerson })
        let issue = try #require(report.errors.first)
        #expect(report.errors.map(\.line) == [104, 310])      // the second and fourth cards
        #expect(issue.message.contains("99 phone numbers of this card not added"))
        // The merge keeps labels and order, and stays linear in the numbers.
        let old = Person(firstName: "A", phones: (0..<20_000).map { LabeledPhone(label: nil, number: parserHR.parse("+385 98 \(4_000_000 + $0)")) })
        var new = old
        new.phones = new.phones.reversed().map { LabeledPhone(label: "work", number: $0.number) }
        let start = Date()
        var left = (phones: 0, emails: 0)
        let merged = Merger.merge(old, new, left: &left)
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(merged.phones.count == 20_000)
        #expect(merged.phones.allSatisfy { $0.label == "work" })
        #expect(left.phones == 0)
    }

    // MARK: CSV

    @Test func aHeaderOfThousandsOfColumnsKeepsTheFirstOnes() throws {
        let s = try TempStore()
        let extra = (0..<50_000).map { "Phone \($0) - Value" }.joined(separator: ",")
        let report = try timedImport(s, "wide.csv", "name,phone,\(extra)\r\nAna,+385 91 111 1111\r\nIvo,+385 91 111 1112\r\n")
        #expect(report.imported == 2)
        #expect(report.errors.map(\.line) == [1])
        #expect(report.errors[0].message.contains("50002 columns"))
    }

    @Test func aRowOfMillionsOfSeparatorsIsCountedNotKept() throws {
        let s = try TempStore()
        for (name, sep) in [("commas.csv", ","), ("semis.csv", ";")] {
            let report = try timedImport(s, name, "name\(sep)phone\r\nAna\(sep)+385 91 111 1111\(String(repeating: sep, count: 1_000_000))\r\nIvo\(sep)+385 91 111 1112\r\n")
            #expect(report.imported + report.skipped == 2)
            #expect(report.errors.map(\.line) == [2])
            #expect(report.errors[0].message.contains("row has 1000002 fields but the header has 2"))
        }
        #expect(try s.contacts.count() == 2)
    }

    @Test func aRowWithThousandsOfNumbersKeepsTheFirstHundred() throws {
        let s = try TempStore()
        let many = (0..<3000).map { "+385 98 \(5_000_000 + $0)" }.joined(separator: " ::: ")
        let wide = (0..<500).map { "+385 97 \(5_000_000 + $0)" }.joined(separator: ",")
        let header = "name,phone," + (0..<500).map { "Phone \($0)" }.joined(separator: ",")
        let report = try timedImport(s, "many.csv", "\(header)\r\nAna,\(many)\r\nIvo,,\(wide)\r\nMia,+385 91 111 1113\r\n")
        #expect(report.imported == 3)
        #expect(try s.all().filter { $0.phones.count == FieldLimits.phonesPerPerson }.count == 2)
        #expect(report.errors.map(\.line) == [2, 3])
        #expect(report.errors[0].message.contains("3000 phone numbers: kept the first 100"))
        #expect(report.errors[1].message.contains("500 phone numbers: kept the first 100"))
    }

    @Test func aStrayQuoteSkipsItsRowAndTheRowsAfterItImport() throws {
        let s = try TempStore()
        let rows = (0..<2000).map { "Person \($0),+385 98 \(6_000_000 + $0)\r\n" }.joined()
        let report = try timedImport(s, "quote.csv", "name,phone\r\nAna,+385 91 111 1111\r\nBad,\"+385 91 unterminated\r\n" + rows)
        #expect(report.imported == 2001)
        #expect(report.skipped == 1)
        #expect(report.errors.map(\.line) == [3])
        #expect(report.errors[0].message.contains("not closed before the end of the file: row skipped, reading goes on at line 4"))
        // A quote that does close still holds separators and newlines.
        let ok = try timedImport(s, "ok.csv", "name,phone\r\n\"Horvat, Ana\nMaria\",+385 91 222 2222\r\nIvo,+385 91 222 2223\r\n")
        #expect(ok.imported == 2)
        #expect(ok.errors.isEmpty)
        #expect(try s.all().contains { $0.formattedName == "Horvat, Ana\nMaria" })
    }

    @Test func aQuoteOpenForTooManyBytesIsReadAgainFromTheNextLine() throws {
        var text = "name,phone\r\nBad,\"open\r\n"
        for i in 0..<100 { text += "Row \(i),+385 98 \(7_000_000 + i)\r\n" }
        // Small chunks and a small limit: the record spans many chunks before it is given up.
        var reader = CSVRecordReader(ByteStream(bytes: Array(text.utf8), chunkSize: 17), maxRecordBytes: 300)
        var records: [CSVRecordReader.Record] = []
        while let r = try reader.next() { records.append(r) }
        #expect(records.count == 102)
        #expect(records[1].unclosedQuote == .tooLong)
        #expect(records[1].line == 2)
        #expect(records[1].resumedAt == 3)
        let rows = records.dropFirst(2)
        #expect(rows.map(\.line) == Array(3..<103))
        #expect(rows.allSatisfy { $0.unclosedQuote == nil && $0.fields.count == 2 })
        #expect(String(decoding: rows.last?.fields[0] ?? [], as: UTF8.self) == "Row 99")
        // The fields of one record are kept up to the limit and counted beyond it.
        var wide = CSVRecordReader(ByteStream(bytes: Array((String(repeating: "a,", count: 10) + "\nb\n").utf8)), maxFields: 4)
        let first = try #require(try wide.next())
        #expect(first.fields.count == 4)
        #expect(first.fieldCount == 11)
        #expect(try wide.next()?.fields == [Array("b".utf8)])
    }

    // MARK: fuzzing

    static let sampleVCard = """
    BEGIN:VCARD\r
    VERSION:2.1\r
    N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C5=A0imi=C4=87;=C4=90ur=C4=91a;;;\r
    FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:J=FCrgen M=FCller und=\r
     weich=\r
    em\r
    TEL;CELL:098 123 4567\r
    TEL;WORK;VOICE:+1 415 555 0132\r
    EMAIL;INTERNET:durda@example.com\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:3.0\r
    UID:abc-123\r
    N:Horvat;Ana;;;\r
    FN:Ana Horvat\r
    ORG:Acme\\, Inc.;Research\r
    TEL;type=CELL,voice:+385 91 765\r
      4321\r
    item1.TEL:+385 1 4567 890\r
    item1.X-ABLabel:_$!<Assistant>!$_\r
    EMAIL;TYPE="INTERNET,WORK":ana@acme.hr\r
    REV:2024-03-01T10:00:00Z\r
    END:VCARD\r
    BEGIN:VCARD\r
    VERSION:4.0\r
    FN:Marko Marić\r
    TEL;VALUE=uri;TYPE="cell,text":tel:+385-98-765-4321\r
    END:VCARD\r

    """

    static let sampleCSV = [
        "First Name,Last Name,Phone 1 - Label,Phone 1 - Value,E-mail 1 - Value,Organization Name",
        "Ana,Horvat,Mobile,+385 91 765 4321 ::: 01 4567 890,ana@acme.hr,\"Acme, Inc.\"",
        "\"Ivo \"\"Ivek\"\"\",Kovač,Work,098 123 4567,ivo@example.com,",
        "Mia,,,+1 415 555 0132,,\"Multi\r\nline\"",
        "",
    ].joined(separator: "\r\n")

    /// One random change to `bytes`: a flipped, removed or inserted byte, a cut, a repeated
    /// stretch (up to thousands of times), a troublesome byte run, or a swap of two stretches.
    static func mutate(_ bytes: inout [UInt8], _ rng: inout SeededRandom) {
        let special: [UInt8] = [0x0D, 0x0A, 0x20, 0x09, 0x3A, 0x3B, 0x2C, 0x3D, 0x22, 0x5C, 0x2E, 0xFF, 0xC3, 0x00]
        func pos() -> Int { bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng) }
        switch Int.random(in: 0..<8, using: &rng) {
        case 0 where !bytes.isEmpty:
            bytes[pos()] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1 where !bytes.isEmpty:
            let at = pos()
            bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &rng)))
        case 2:
            bytes.insert(special.randomElement(using: &rng)!, at: pos())
        case 3:
            bytes.insert(contentsOf: repeatElement(special.randomElement(using: &rng)!, count: Int.random(in: 1...20_000, using: &rng)), at: pos())
        case 4 where !bytes.isEmpty:
            let at = pos(), len = Int.random(in: 1...80, using: &rng)
            let piece = Array(bytes[at..<min(bytes.count, at + len)])
            let times = Int.random(in: 1...3000, using: &rng)
            var run: [UInt8] = []
            run.reserveCapacity(piece.count * times)
            for _ in 0..<times { run += piece }
            bytes.insert(contentsOf: run, at: pos())
        case 5 where !bytes.isEmpty:
            bytes.removeSubrange(pos()...)
        case 6 where bytes.count > 2:
            let a = pos(), b = pos()
            let (lo, hi) = (min(a, b), max(a, b))
            bytes[lo..<hi].reverse()
        default:
            bytes.insert(UInt8.random(in: 0...255, using: &rng), at: pos())
        }
        if bytes.count > 512 * 1024 { bytes.removeSubrange((512 * 1024)...) }
    }

    func fuzz(_ sample: String, format: ImportFormat, runs: Int, seed: UInt64) throws {
        let s = try TempStore()
        let importer = try s.importer()
        var rng = SeededRandom(seed: seed)
        for run in 0..<runs {
            var bytes = Array(sample.utf8)
            for _ in 0..<Int.random(in: 1...6, using: &rng) { Self.mutate(&bytes, &rng) }
            let url = try s.write("fuzz-\(run).\(format.rawValue)", bytes: bytes)
            let start = Date()
            let report = try importer.importContacts(from: url, format: format)
            #expect(Date().timeIntervalSince(start) < 10, "run \(run) (seed \(seed)) took too long")
            #expect(report.errors.count <= ImportReport.maxIssues + 1)
            try? FileManager.default.removeItem(at: url)
        }
        // The book is still whole and searchable.
        let people = try s.all()
        #expect(people.allSatisfy { $0.phones.count <= FieldLimits.phonesPerPerson && $0.emails.count <= FieldLimits.emailsPerPerson })
        _ = try s.contacts.search("ana")
    }

    @Test func mutatedVCardsNeverCrashOrHang() throws {
        try fuzz(Self.sampleVCard, format: .vcard, runs: 300, seed: 20_240_301)
    }

    @Test func mutatedCSVFilesNeverCrashOrHang() throws {
        try fuzz(Self.sampleCSV, format: .csv, runs: 150, seed: 77)
    }
}

