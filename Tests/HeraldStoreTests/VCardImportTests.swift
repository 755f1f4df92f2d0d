import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct VCardImportTests {
    @Test func readsVCard21WithQuotedPrintableCharsetAndBareParams() throws {
        let s = try TempStore()
        let card = [
            "BEGIN:VCARD", "VERSION:2.1",
            "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C5=A0imi=C4=87;=C4=90ur=C4=91a;;;",
            "FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:J=FCrgen M=FCller und eine sehr lange Zeile mit weich=",
            "em Umbruch",
            "TEL;CELL:098 123 4567", "TEL;WORK;VOICE:+1 415 555 0132",
            "EMAIL;INTERNET:durda@example.com",
            "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQ",
            " AAAQABAAD",
            "END:VCARD", "",
        ].joined(separator: "\r\n")
        let report = try s.importText("old.vcf", card)
        #expect(report.imported == 1)
        #expect(report.errors.isEmpty)
        let p = try #require(try s.all().first)
        #expect(p.firstName == "Đurđa")
        #expect(p.lastName == "Šimić")
        #expect(p.formattedName == "Jürgen Müller und eine sehr lange Zeile mit weichem Umbruch")
        #expect(p.phones.map(\.label) == ["mobile", "work"])
        #expect(p.phones.map(\.number.e164) == ["+385981234567", "+14155550132"])
        #expect(p.emails.map(\.address) == ["durda@example.com"])
        #expect(p.hasPhoto)
    }

    @Test func readsVCard3And4WithFoldingEscapingTypesUIDAndTelURIs() throws {
        let s = try TempStore()
        let text = """
        BEGIN:VCARD
        VERSION:3.0
        UID:abc-123
        N:Horvat;Ana;;;
        FN:Ana Horvat
        ORG:Acme\\, Inc.;Research
        TEL;type=CELL,voice:+385 91 765
         4321
        item1.TEL:+385 1 4567 890
        item1.X-ABLabel:_$!<Assistant>!$_
        EMAIL;TYPE=INTERNET,WORK:ana@acme.hr
        NOTE:line one\\nline two
        REV:2024-03-01T10:00:00Z
        END:VCARD
        BEGIN:VCARD
        VERSION:4.0
        FN:Marko Marić
        TEL;VALUE=uri;TYPE="cell,text":tel:+385-98-765-4321
        EMAIL;TYPE=home:marko@example.com
        END:VCARD

        """
        let report = try s.importText("new.vcf", text)
        #expect(report.imported == 2)
        let people = try s.all()
        let ana = try #require(people.first { $0.uid == "abc-123" })
        #expect(ana.organization == "Acme, Inc., Research")
        #expect(ana.phones.map(\.number.e164) == ["+385917654321", "+38514567890"])
        #expect(ana.phones.map(\.label) == ["mobile", "assistant"])
        #expect(ana.emails.first?.label == "work")
        #expect(ana.revision == Date(timeIntervalSince1970: 1_709_287_200))
        let marko = try #require(people.first { $0.formattedName == "Marko Marić" })
        #expect(marko.firstName == "Marko")
        #expect(marko.lastName == "Marić")
        #expect(marko.phones.first?.number.e164 == "+385987654321")
        #expect(marko.phones.first?.label == "mobile")
    }

    @Test func aBadCardIsReportedWithFileAndLineAndTheRestImports() throws {
        let s = try TempStore()
        let text = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Good One
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        NOTE:nothing useful here
        END:VCARD
        garbage line
        BEGIN:VCARD
        FN:Unclosed
        BEGIN:VCARD
        FN:Good Two
        TEL:+385981112222
        END:VCARD
        BEGIN:VCARD
        FN:Cut Off At The End
        """
        let url = try s.write("mixed.vcf", text)
        let report = try s.importer().importContacts(from: url)
        #expect(report.imported == 2)
        let names = try s.all().map(\.formattedName)
        #expect(names == ["Good One", "Good Two"])
        let lines = report.errors.map(\.line)
        #expect(lines == [5, 9, 10, 16])
        #expect(report.errors.allSatisfy { $0.file == url.path })
        #expect(report.errors[0].message.contains("no name"))
        #expect(report.errors[1].message.contains("expected BEGIN:VCARD"))
        #expect(report.errors[2].message.contains("END:VCARD is missing"))
    }

    @Test func invalidUTF8IsDecodedLossilyAndReported() throws {
        let s = try TempStore()
        var bytes = Array("BEGIN:VCARD\nVERSION:3.0\nFN:Ana ".utf8)
        bytes += [0xFF, 0xFE, 0xC3]
        bytes += Array(" Horvat\nTEL:+385981234567\nEND:VCARD\n".utf8)
        let url = try s.write("bad.vcf", bytes: bytes)
        let report = try s.importer().importContacts(from: url, format: .vcard)
        #expect(report.imported == 1)
        #expect(report.errors.count == 1)
        #expect(report.errors[0].line == 3)
        #expect(report.errors[0].message.contains("UTF-8"))
        #expect(try s.all().first?.formattedName.hasPrefix("Ana ") == true)
    }

    @Test func oversizedFieldsAreCutAndReported() throws {
        let s = try TempStore()
        let huge = String(repeating: "A", count: 1_000_000)
        let report = try s.importText("huge.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:\(huge)\nN:Big;\(huge);;;\nEND:VCARD\n")
        #expect(report.imported == 1)
        #expect(report.errors.count == 2)
        #expect(report.errors[0].message.contains("1000000 characters"))
        let p = try #require(try s.all().first)
        #expect(p.formattedName.count == FieldLimits.text)
        #expect(p.firstName.count == FieldLimits.text)
    }

    @Test func reimportMergesByUIDNumberOrEmail() throws {
        let s = try TempStore()
        let first = """
        BEGIN:VCARD
        VERSION:3.0
        UID:u1
        FN:Ana Horvat
        TEL:+385981234567
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Bob Smith
        TEL:+14155550132
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Cia Marić
        EMAIL:Cia@Example.com
        END:VCARD

        """
        var report = try s.importText("a.vcf", first)
        #expect([report.imported, report.updated, report.skipped] as [Int] == [3, 0, 0] as [Int])
        report = try s.importText("a.vcf", first)
        #expect([report.imported, report.updated, report.skipped] as [Int] == [0, 0, 3] as [Int])
        let second = """
        BEGIN:VCARD
        UID:u1
        FN:Ana Horvat-Kovač
        TEL:+385981234567
        END:VCARD
        BEGIN:VCARD
        FN:Robert Smith
        TEL:(415) 555-0132
        TEL:+385917777777
        END:VCARD
        BEGIN:VCARD
        FN:Cia Marić
        EMAIL:cia@example.com
        ORG:Acme
        END:VCARD
        BEGIN:VCARD
        FN:Dora New
        END:VCARD

        """
        report = try importWithRegion("US", s, "b.vcf", second)
        #expect([report.imported, report.updated, report.skipped] as [Int] == [1, 3, 0] as [Int])
        let people = try s.all()
        #expect(people.count == 4)
        let bob = try #require(people.first { $0.formattedName == "Robert Smith" })
        #expect(bob.phones.map(\.number.e164) == ["+14155550132", "+385917777777"])
        #expect(people.contains { $0.formattedName == "Ana Horvat-Kovač" && $0.uid == "u1" })
        #expect(people.first { $0.formattedName == "Cia Marić" }?.organization == "Acme")
    }

    func importWithRegion(_ region: String, _ s: TempStore, _ name: String, _ text: String) throws -> ImportReport {
        try s.importer(region: region).importContacts(from: try s.write(name, text))
    }

    @Test func vdirFolderOneCardPerFile() throws {
        let s = try TempStore()
        try s.write("book/contacts/a.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:a\r\nFN:Ana A\r\nEND:VCARD\r\n")
        try s.write("book/contacts/b.vcf", "BEGIN:VCARD\nVERSION:4.0\nUID:b\nFN:Bo B\nTEL:+385981234567\nEND:VCARD\n")
        let bad = try s.write("book/contacts/c.vcf", "BEGIN:VCARD\nFN:No End\n")
        try s.write("book/contacts/readme.txt", "not a card")
        let folder = s.folder.appendingPathComponent("book")
        #expect(try ContactImporter.detectFormat(of: folder) == .vdir)
        let report = try s.importer().importContacts(from: folder)
        #expect(report.imported == 2)
        #expect(report.errors.map(\.file) == [bad.path])
        #expect(report.errors.map(\.line) == [1])
    }

    @Test func invalidAndNationalNumbersNeedARegion() throws {
        let s = try TempStore()
        let url = try s.write("n.vcf", "BEGIN:VCARD\nFN:X\nTEL:098 123 4567\nTEL:call me\nEND:VCARD\n")
        _ = try s.importer(region: nil).importContacts(from: url)
        let p = try #require(try s.all().first)
        #expect(p.phones.map(\.number.raw) == ["098 123 4567", "call me"])
        #expect(p.phones.allSatisfy { $0.number.e164 == nil && $0.number.invalidReason != nil })
        #expect(p.phones[0].number.invalidReason?.contains("--region") == true)
    }

    @Test func detectsFormatFromContentWhenTheExtensionSaysNothing() throws {
        let s = try TempStore()
        #expect(try ContactImporter.detectFormat(of: try s.write("x.txt", "\u{FEFF}BEGIN:VCARD\nFN:A\nEND:VCARD\n")) == .vcard)
        #expect(try ContactImporter.detectFormat(of: try s.write("y.txt", "name,phone\nAna,+385981234567\n")) == .csv)
        #expect(throws: ImportError.self) { try ContactImporter.detectFormat(of: try s.write("z.txt", "hello")) }
        #expect(throws: ImportError.self) { try ContactImporter.detectFormat(of: s.folder.appendingPathComponent("missing.vcf")) }
    }

    @Test func aFileThatCannotBeReadIsSaidSoWithItsCauseNotTakenForAnUnknownFormat() {
        // Opens fine, and its first read fails (EIO): before, that read was taken for an empty file.
        let url = URL(fileURLWithPath: "/proc/self/mem")
        do {
            _ = try ContactImporter.detectFormat(of: url)
            Issue.record("an unreadable file has no format")
        } catch ImportError.unreadable(let path, let why) {
            #expect(path == url.path)
            #expect(!why.isEmpty && why != "permission denied")
        } catch {
            Issue.record("expected ImportError.unreadable, got \(error)")
        }
    }
}
