import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// Importing the same cards again adds no one: khard's test vCards (cards with only a name, an organisation's card)
/// and a card whose national number was read without a region, then again with one.
@Suite struct ReimportTests {
    /// Cards as khard's test fixtures write them (lucc/khard test/fixture/vcards): a name only, Korean names only,
    /// an organisation (KIND:org, no N), and a person with a US national number and no UID.
    static let cards: [(String, String)] = [
        ("minimal.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:minimal contact\nEND:VCARD\n"),
        ("korean-c.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:최유림\nEND:VCARD\n"),
        ("korean-j.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:전도훈\nEND:VCARD\n"),
        ("org.vcf", "BEGIN:VCARD\nVERSION:4.0\nUID:429A43AB-52F2-4714-AA62-077528A12464\nKIND:org\nFN:ACME Inc.\nORG:ACME Inc.;\nEND:VCARD\n"),
        ("john.vcf", "BEGIN:VCARD\nVERSION:3.0\nN:Doe;John;;;\nFN:John Doe\nTEL;TYPE=CELL:(212) 555-0143\nEND:VCARD\n"),
    ]

    func folder(_ s: TempStore) throws -> URL {
        for (name, text) in Self.cards { try s.write("vdir/\(name)", text) }
        return s.folder.appendingPathComponent("vdir")
    }

    @Test func theSameFilesAgainAddAndChangeNothing() throws {
        let s = try TempStore()
        let dir = try folder(s)
        let first = try s.importer(region: nil).importContacts(from: dir)
        #expect(first.imported == 5)
        #expect(first.numbersNeedingRegion == 1, "John's number needs a region")
        let again = try s.importer(region: nil).importContacts(from: dir)
        #expect(again.imported == 0)
        #expect(again.updated == 0)
        #expect(again.skipped == 5)
        #expect(try s.all().count == 5)
    }

    @Test func aNewRegionReparsesTheSamePeoplesNumbersInPlace() throws {
        let s = try TempStore()
        let dir = try folder(s)
        _ = try s.importer(region: nil).importContacts(from: dir)
        let withRegion = try s.importer(region: "US").importContacts(from: dir)
        #expect(withRegion.imported == 0)
        #expect(withRegion.updated == 1)
        #expect(withRegion.numbersNeedingRegion == 0)
        let johns = try s.all().filter { $0.lastName == "Doe" }
        #expect(johns.count == 1)
        #expect(johns.first?.phones.map(\.number.e164) == ["+12125550143"])
        // An import without a region later never spoils the number read right.
        let without = try s.importer(region: nil).importContacts(from: dir)
        #expect(without.updated == 0)
        #expect(try s.all().filter { $0.lastName == "Doe" }.first?.phones.map(\.number.e164) == ["+12125550143"])
        #expect(try s.all().count == 5)
    }

    @Test func anOrganisationsCardIsTheOrganisationNotAPersonsName() throws {
        let s = try TempStore()
        _ = try s.importText("org.vcf", Self.cards[3].1)
        let org = try #require(try s.all().first)
        #expect(org.firstName.isEmpty)
        #expect(org.lastName.isEmpty)
        #expect(org.organization == "ACME Inc.")
        #expect(org.displayName == "ACME Inc.")
    }
}
