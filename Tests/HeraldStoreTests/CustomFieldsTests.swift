import Foundation
import GRDB
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

/// Custom fields on a real herald.sqlite: every CSV column Herald has no place for and every vCard X- property that is
/// a person's (not a tool's) kept per person within bounds, each cut told with file, line and field; merged on
/// re-import; written back to a vdir card's own X- line with every other line byte for byte.
@Suite struct CustomFieldsTests {
    @Test func unknownCSVColumnsAreKeptAsFieldsAndKnownOnesStayAsTheyWere() throws {
        let s = try TempStore()
        let report = try s.importText("club.csv", """
            First Name,Last Name,Phone 1 - Label,Phone 1 - Value,Shirt size,Team,Notes,Custom Field 1 - Label,Custom Field 1 - Value,Website 1 - Value,,Receiver name
            Ana,Horvat,Mobile,+385911111111,M,Blue,likes hills,Dietary needs,vegan,https://ana.example,x,Ana H
            Bo,Kim,Mobile,+385912222222,,Red,,,,,,

            """)
        #expect(report.imported == 2)
        let people = try s.all()
        let ana = try #require(people.first { $0.firstName == "Ana" })
        #expect(ana.customFields == ["SHIRT_SIZE": "M", "TEAM": "Blue", "DIETARY_NEEDS": "vegan", "WEBSITE_1": "https://ana.example"])
        #expect(ana.note == "likes hills")
        #expect(ana.phones.first?.label == "mobile")
        #expect(people.first { $0.firstName == "Bo" }?.customFields == ["TEAM": "Red"])
        // The column that would be a field Herald fills itself is left out, said once, on the header's line.
        let refused = report.errors.filter { $0.message.contains("RECEIVER_NAME") }
        #expect(refused.count == 1 && refused.first?.line == 1 && refused.first?.file.hasSuffix("club.csv") == true, "\(report.errors)")
        #expect(refused.first?.message.contains("a field Herald fills itself") == true)
        #expect(PersonalFields.values(of: ana)["SHIRT_SIZE"] == "M")
    }

    @Test func oversizeValuesAndTooManyFieldsAreCutWithFileLineAndField() throws {
        let s = try TempStore()
        let titles = (1...52).map { "Extra \($0)" }
        let long = String(repeating: "x", count: 1_001)
        let csv = "Name,Phone,Bio," + titles.joined(separator: ",") + "\n"
            + "Ana Horvat,+385911111111,\(long)," + titles.map { "v-" + $0 }.joined(separator: ",") + "\n"
        let report = try s.importText("big.csv", csv)
        let ana = try #require(try s.all().first)
        #expect(ana.customFields.count == PersonalFields.maxFieldsPerPerson)
        #expect(ana.customFields["BIO"] == nil && ana.customFields["EXTRA_1"] == "v-Extra 1" && ana.customFields["EXTRA_51"] == nil)
        let oversize = try #require(report.errors.first { $0.message.contains("{BIO}") }, "\(report.errors)")
        #expect(oversize.line == 2 && oversize.file.hasSuffix("big.csv"))
        #expect(oversize.message.contains("1001 characters long: not kept (at most 1000)"), "\(oversize.message)")
        #expect(report.errors.contains { $0.line == 2 && $0.message.contains("52 custom fields: kept the first 50") }, "\(report.errors)")
    }

    @Test func vCardXPropertiesAreFieldsButToolBookkeepingIsNot() throws {
        let s = try TempStore()
        let report = try s.importText("people.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            FN:Ana Horvat\r
            N:Horvat;Ana;;;\r
            TEL:+385911111111\r
            X-SHIRT-SIZE:L\r
            x-team:Blue\\, north\r
            X-ABUID:5C3D-AB:ABPerson\r
            X-EVOLUTION-FILE-AS:Horvat\\, Ana\r
            item1.X-ABDATE:2020-01-01\r
            item1.X-ABLabel:_$!<Anniversary>!$_\r
            X-FIRST-NAME:Anica\r
            X-EMPTY:\r
            X-SHIRT-SIZE:XL\r
            END:VCARD\r

            """)
        let ana = try #require(try s.all().first)
        #expect(ana.customFields == ["SHIRT_SIZE": "L", "TEAM": "Blue, north"], "\(ana.customFields)")
        #expect(report.errors.contains { $0.line == 12 && $0.message.contains("X-FIRST-NAME") && $0.message.contains("{FIRST_NAME}") },
                "\(report.errors)")
        #expect(report.errors.contains { $0.line == 14 && $0.message.contains("{SHIRT_SIZE}") && $0.message.contains("kept the first") })
    }

    @Test func aReImportUpdatesFieldsAndTheStoreKeepsThemThroughEditsAndMerges() throws {
        let s = try TempStore()
        _ = try s.importText("a.csv", "Name,Phone,Team,Shirt\nAna Horvat,+385911111111,Blue,M\n")
        _ = try s.importText("b.csv", "Name,Phone,Team,Bib\nAna Horvat,+385911111111,Red,42\n")
        let ana = try #require(try s.all().first)
        let anaId = try #require(ana.id)
        #expect(ana.customFields == ["TEAM": "Red", "SHIRT": "M", "BIB": "42"])
        // Stored as one JSON object beside the person, no row more.
        let column = try s.database.read { db in try String.fetchOne(db, sql: "SELECT custom_fields FROM person") }
        #expect(column == #"{"BIB":"42","SHIRT":"M","TEAM":"Red"}"#)

        var draft = ContactDraft(ana)
        draft.customFields["SHIRT"] = nil
        draft.customFields["NICK"] = "line\\with \"quotes\""
        let saved = try #require(try s.contacts.save(draft, personId: anaId, parser: parserHR))
        #expect(try s.contacts.person(id: anaId)?.customFields == saved.customFields)
        #expect(saved.customFields == ["TEAM": "Red", "BIB": "42", "NICK": "line\\with \"quotes\""])

        let bo = try s.contacts.insert(Person(firstName: "Bo", customFields: ["TEAM": "Green", "CITY": "Split"]))
        let boId = try #require(bo.id)
        let merged = try s.contacts.merge(ids: [anaId, boId])
        #expect(merged.person.customFields["TEAM"] == "Red" && merged.person.customFields["CITY"] == "Split")
        #expect(try s.contacts.person(id: anaId)?.customFields["CITY"] == "Split")
    }

    @Test func aVdirCardChangesOnlyTheXLinesOfTheFieldsThatChanged() throws {
        let s = try TempStore()
        let folder = s.folder.appendingPathComponent("personal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let original = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:ana-1\r
            FN:Ana Horvat\r
            N:Horvat;Ana;;;\r
            TEL;TYPE=cell:+385911111111\r
            REV:20261126T031500Z\r
            X-Shirt-Size:M\r
            X-KHARD-NICK:ana\r
            X-TEAM;TYPE=home:Blue\r
            X-BIB:42\r
            X-NOTE-LONG:a value that is long enough that the program that wrote it folded the lin\r
             e in two\r
            ADR;TYPE=home:;;Ilica 1;Zagreb;;10000;Croatia\r
            END:VCARD\r

            """
        try Data(original.utf8).write(to: folder.appendingPathComponent("ana-1.vcf"))
        let books = AddressBooks(database: s.database, parser: parserHR, clock: s.clock)
        try books.register([AddressBook(name: "personal", kind: .vdir, location: folder.path)])
        _ = try books.sync("personal")
        let ana = try #require(try s.all().first)
        let id = try #require(ana.id)
        #expect(ana.customFields == ["SHIRT_SIZE": "M", "TEAM": "Blue", "BIB": "42",
                                     "NOTE_LONG": "a value that is long enough that the program that wrote it folded the line in two"])

        // An edit of something else keeps every X- line byte for byte.
        var draft = ContactDraft(ana)
        draft.organization = "Acme"
        _ = try s.contacts.save(draft, personId: id, parser: parserHR)
        let file = folder.appendingPathComponent("ana-1.vcf")
        let orgOnly = try String(contentsOf: file, encoding: .utf8)
        for line in ["X-Shirt-Size:M", "X-KHARD-NICK:ana", "X-TEAM;TYPE=home:Blue", "X-BIB:42",
                     "X-NOTE-LONG:a value that is long enough that the program that wrote it folded the lin\r\n e in two"] {
            #expect(orgOnly.contains(line + "\r\n"), "\(line) in \(orgOnly)")
        }

        // Changed in place (the card's own spelling), removed, added before END; nothing else moves.
        draft = ContactDraft(try #require(try s.contacts.person(id: id)))
        draft.customFields["SHIRT_SIZE"] = "L"
        draft.customFields["BIB"] = nil
        draft.customFields["CITY"] = "Zagreb"
        _ = try s.contacts.save(draft, personId: id, parser: parserHR)
        let written = try String(contentsOf: file, encoding: .utf8)
        let before = orgOnly.components(separatedBy: "\r\n"), after = written.components(separatedBy: "\r\n")
        #expect(after.count == before.count, "\(written)")
        let expected = before.filter { $0 != "X-BIB:42" && !$0.hasPrefix("REV:") }
            .map { $0 == "X-Shirt-Size:M" ? "X-Shirt-Size:L" : $0 }
            .flatMap { $0 == "END:VCARD" ? ["X-CITY:Zagreb", $0] : [$0] }
        #expect(after.filter { !$0.hasPrefix("REV:") } == expected, "\(written)")

        // A sync reads back what was written.
        _ = try books.sync("personal")
        #expect(try s.contacts.person(id: id)?.customFields == ["SHIRT_SIZE": "L", "TEAM": "Blue", "CITY": "Zagreb",
                                                                "NOTE_LONG": ana.customFields["NOTE_LONG"] ?? ""])
    }

    @Test func aNewCardAndAnExportCarryTheFieldsAsXLines() throws {
        let person = Person(uid: "x", firstName: "Ana", lastName: "Horvat", formattedName: "Ana Horvat",
                            customFields: ["SHIRT_SIZE": "L", "TEAM": "Blue, north"])
        let card = VCardPatch.newCard(person, uid: "x", now: Date(timeIntervalSince1970: 0))
        #expect(card.contains("X-SHIRT-SIZE:L\r\nX-TEAM:Blue\\, north\r\nEND:VCARD"), "\(card)")
        #expect(VCardWriter.card(person).contains("X-SHIRT-SIZE:L\r\nX-TEAM:Blue\\, north\r\n"))
        let s = try TempStore()
        _ = try s.importText("export.vcf", VCardWriter.card(person))
        #expect(try s.all().first?.customFields == person.customFields)
    }
}

/// `personIDs(withNumbers:)`: a page of numbers named in one read.
@Suite struct PersonIDsByNumbersTests {
    @Test func eachNumberGivesItsPersonAndASharedOneTheFirstStored() throws {
        let s = try TempStore()
        let ana = try #require(try s.contacts.insert(person("Ana", "Horvat", phones: ["+385911111111", "+385912222222"])).id)
        let bo = try #require(try s.contacts.insert(person("Bo", "Kim", phones: ["+385912222222", "+385913333333"])).id)
        let found = try s.contacts.personIDs(withNumbers: ["+385911111111", "+385912222222", "+385913333333", "+385919999999",
                                                           "+385911111111"])
        #expect(found == ["+385911111111": ana, "+385912222222": ana, "+385913333333": bo])
        #expect(try s.contacts.personIDs(withNumbers: []).isEmpty)
        // More than one statement's worth.
        let many = (0..<600).map { "+38598\(String(format: "%07d", $0))" } + ["+385913333333"]
        #expect(try s.contacts.personIDs(withNumbers: many) == ["+385913333333": bo])
    }
}
