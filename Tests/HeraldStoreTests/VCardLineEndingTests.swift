import Foundation
import HeraldTestKit
import Testing
@testable import HeraldStore

/// vCards as phones and old programs really write them: every mix of CR, LF, CRLF and CR CR LF.
@Suite struct VCardLineEndingTests {
    static let iPhone = "begin:vcard\r\r\nversion:3.0\r\r\nN:Horvat;Ana;;;\r\r\nFN:Ana Horvat\r\r\n"
        + "item1.TEL;type=CELL:+385 91 234 5678\r\r\nitem1.X-ABLabel:_$!<Mobile>!$_\r\r\n"
        + "NOTE:a folded\r\r\n  note\r\r\nTEL;VALUE=uri;TYPE=work:tel:+385-1-4567-890;ext=12\r\r\nend:vcard\r\r\n"

    @Test func anIPhoneExportWithCRCRLFAndLowerCaseImportsWhole() throws {
        let s = try TempStore()
        let report = try s.importText("iphone.vcf", Self.iPhone)
        #expect(report.errors.isEmpty)
        #expect(report.imported == 1)
        let ana = try #require(try s.contacts.people().first)
        #expect(ana.displayName == "Ana Horvat")
        #expect(ana.phones.map(\.number.e164) == ["+385912345678", "+38514567890"])
        #expect(ana.phones.first?.label == "mobile")
    }

    @Test func crOnlyLFOnlyAndMixedFilesImportTheSameAndCountLinesAlike() throws {
        let s = try TempStore()
        let card = ["BEGIN:VCARD", "VERSION:3.0", "N:Cr;Bo;;;", "FN:Bo Cr", "TEL:+385 92 111 2222", "END:VCARD"]
        for (name, separator) in [("cr", "\r"), ("lf", "\n"), ("crlf", "\r\n"), ("crcrlf", "\r\r\n")] {
            let report = try s.importText("\(name).vcf", card.joined(separator: separator) + separator)
            #expect(report.errors.isEmpty, "\(name)")
        }
        #expect(try s.contacts.people().count == 1)
        // A broken card on line 4 is reported on line 4 whatever the line ends are.
        let broken = ["BEGIN:VCARD", "VERSION:3.0", "FN:One", "END:VCARD", "garbage", "BEGIN:VCARD", "FN:Two", "END:VCARD"]
        for separator in ["\r", "\r\r\n", "\n"] {
            let report = try s.importText("broken.vcf", broken.joined(separator: separator) + separator)
            #expect(report.errors.map(\.line) == [5])
        }
    }

    @Test func controlCharactersInAnErrorAreShownVisiblyNotAsSpaces() throws {
        let s = try TempStore()
        let report = try s.importText("bad.vcf", "VCARD\u{1B}[31m\tX\r\n")
        let message = try #require(report.errors.first?.message)
        #expect(message.contains("VCARD\\u{1B}[31m\\tX"))
        #expect(!message.contains("\u{1B}"))
    }
}
