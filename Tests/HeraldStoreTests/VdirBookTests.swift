import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

private let anaCard = """
BEGIN:VCARD\r
VERSION:3.0\r
UID:ana-1\r
FN:Ana Horvat\r
N:Horvat;Ana;;;\r
TEL;TYPE=cell:+385 91 111 1111\r
X-KHARD-NICK:ana\r
ADR;TYPE=home:;;Ilica 1;Zagreb;;10000;Croatia\r
NOTE:a long note that is folded by the program that wrote it, so that its line is more than seventy-five \r
 octets long\r
END:VCARD\r

"""

private let boCard = "BEGIN:VCARD\nVERSION:4.0\nUID:bo-2\nFN:Bo Kim\nN:Kim;Bo;;;\nEMAIL;TYPE=work:bo@example.com\nCATEGORIES:friends\nEND:VCARD\n"

/// A vdir book on a real folder and a real store: syncing, and edits written back as khard and vdirsyncer keep cards.
@Suite struct VdirBookTests {
    struct Book {
        let store = try! TempStore()
        let folder: URL
        var books: AddressBooks { AddressBooks(database: store.database, parser: parserHR, clock: store.clock) }
        var contacts: ContactStore { store.contacts }

        init(cards: [String: String]) throws {
            folder = store.folder.appendingPathComponent("personal")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, text) in cards { try write(name, text) }
            try books.register([AddressBook(name: "personal", kind: .vdir, location: folder.path)])
        }

        func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        func read(_ name: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }
        func person(_ first: String) throws -> Person { try #require(try contacts.people().first { $0.firstName == first }) }
        func id(_ first: String) throws -> Int64 { try #require(try person(first).id) }
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
    }

    @Test func aSyncReadsNewChangedAndRemovedCardsAndReportsABadOneByFileAndLine() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard, "bo-2.vcf": boCard, "bad.vcf": "BEGIN:VCARD\nFN:Broken\n"])
        let first = try b.books.sync("personal")
        #expect(first.added == 2 && first.updated == 0 && first.removed == 0)
        #expect(first.issues.count == 1)
        #expect(first.issues.first?.file.hasSuffix("personal/bad.vcf") == true)
        #expect(first.issues.first?.message.contains("END:VCARD is missing") == true)
        #expect(try b.person("Ana").phones.first?.number.e164 == "+385911111111")
        let again = try b.books.sync("personal")
        #expect(again.added == 0 && again.updated == 0 && again.unchanged == 2)

        // Another program changes one card and removes the other.
        try b.write("ana-1.vcf", anaCard.replacingOccurrences(of: "+385 91 111 1111", with: "+385 98 765 4321"))
        try FileManager.default.removeItem(at: b.folder.appendingPathComponent("bo-2.vcf"))
        let later = try b.books.sync("personal")
        #expect(later.updated == 1 && later.removed == 1)
        #expect(try b.person("Ana").phones.map(\.number.e164) == ["+385987654321"])
        #expect(try b.contacts.people().map(\.firstName) == ["Ana"])
        #expect(try b.books.list().map(\.people) == [1])
    }

    /// What a folder watch hands on: only the files it names are looked at, and a named file that is gone removes
    /// its person; names that are not cards are left alone.
    @Test func aSyncOfTheFilesAWatchSawLooksAtThoseAlone() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard, "bo-2.vcf": boCard])
        _ = try b.books.sync("personal")
        try b.write("ana-1.vcf", anaCard.replacingOccurrences(of: "FN:Ana Horvat", with: "FN:Ana Horvat-Kos")
            .replacingOccurrences(of: "N:Horvat;Ana;;;", with: "N:Horvat-Kos;Ana;;;"))
        try b.write("bo-2.vcf", boCard.replacingOccurrences(of: "Bo", with: "Bob"))
        try b.write("cy-3.vcf", "BEGIN:VCARD\nVERSION:3.0\nUID:cy-3\nFN:Cy Lee\nN:Lee;Cy;;;\nEND:VCARD\n")
        let named = try b.books.sync("personal", only: ["ana-1.vcf", "cy-3.vcf", ".ana-1.vcf.herald-x.tmp", "notes.txt"])
        #expect(named.updated == 1 && named.added == 1 && named.removed == 0 && named.unchanged == 0)
        #expect(try b.person("Ana").lastName == "Horvat-Kos")
        #expect(try b.contacts.people().map(\.firstName).sorted() == ["Ana", "Bo", "Cy"])      // bo-2.vcf not looked at

        try FileManager.default.removeItem(at: b.folder.appendingPathComponent("cy-3.vcf"))
        let gone = try b.books.sync("personal", only: ["cy-3.vcf", "bo-2.vcf"])
        #expect(gone.removed == 1 && gone.updated == 1)
        #expect(try b.contacts.people().map(\.firstName).sorted() == ["Ana", "Bob"])
        #expect(try b.books.sync("personal").unchanged == 2)
    }

    @Test func anEditIsWrittenBackKeepingUIDUnknownLinesTheirFoldingAndLineEndings() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard, "bo-2.vcf": boCard])
        _ = try b.books.sync("personal")
        b.store.clock.set(Date(timeIntervalSince1970: 1_800_000_000))
        var draft = ContactDraft(try b.person("Ana"))
        draft.organization = "Acme; d.o.o."
        draft.phones = [ContactDraft.Labeled(label: "work", value: "01 234 5678")]
        #expect(try b.contacts.save(draft, personId: try b.id("Ana"), parser: parserHR) != nil)
        let written = try b.read("ana-1.vcf")
        #expect(written.contains("UID:ana-1\r\n"))
        #expect(written.contains("X-KHARD-NICK:ana\r\n"))
        #expect(written.contains("ADR;TYPE=home:;;Ilica 1;Zagreb;;10000;Croatia\r\n"))
        #expect(written.contains("ORG:Acme\\; d.o.o.\r\n"))
        #expect(written.contains("TEL;TYPE=work:+38512345678\r\n"))
        #expect(!written.contains("+385 91 111 1111"))
        #expect(written.contains("REV:20270115T080000Z\r\n"))
        // The note was written again by Herald (folded by Herald's rule); nothing ends with a bare LF.
        #expect(!written.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(written.hasPrefix("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana-1\r\nFN:Ana Horvat\r\n"))

        // A vCard 4.0 file with LF endings stays so.
        var bo = ContactDraft(try b.person("Bo"))
        bo.note = "met at the conference"
        _ = try b.contacts.save(bo, personId: try b.id("Bo"), parser: parserHR)
        let boText = try b.read("bo-2.vcf")
        #expect(!boText.contains("\r"))
        #expect(boText.contains("CATEGORIES:friends\n") && boText.contains("NOTE:met at the conference\n"))
        #expect(boText.contains("EMAIL;TYPE=work:bo@example.com\n"))
        // The writes are Herald's own: the next sync changes nothing.
        let sync = try b.books.sync("personal")
        #expect(sync.updated == 0 && sync.unchanged == 2)
        #expect(try b.files() == ["ana-1.vcf", "bo-2.vcf"])      // no temporary file left behind
    }

    @Test func aCardChangedByAnotherProgramIsNeverOverwritten() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard])
        _ = try b.books.sync("personal")
        let changed = anaCard.replacingOccurrences(of: "X-KHARD-NICK:ana", with: "X-KHARD-NICK:anica")
        try b.write("ana-1.vcf", changed)
        var draft = ContactDraft(try b.person("Ana"))
        draft.note = "mine"
        #expect(throws: BookError.self) { try b.contacts.save(draft, personId: try b.id("Ana"), parser: parserHR) }
        #expect(try b.read("ana-1.vcf") == changed)
        #expect(try b.person("Ana").note?.contains("folded") == true)     // the store kept the card as read
    }

    @Test func addDeleteUndoAndMergeMoveTheFiles() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard, "bo-2.vcf": boCard])
        _ = try b.books.sync("personal")
        var draft = ContactDraft()
        draft.firstName = "Cvita"
        draft.lastName = "Perić"
        draft.phones = [ContactDraft.Labeled(label: "mobile", value: "091 333 3333")]
        let cvita = try b.contacts.add(draft, parser: parserHR, book: "personal")
        let uid = try #require(cvita.uid)
        let file = try b.read("\(uid).vcf")
        #expect(file.contains("UID:\(uid)\r\n") && file.contains("FN:Cvita Perić\r\n") && file.contains("TEL;TYPE=cell:+385913333333\r\n"))
        #expect(try b.books.card(personId: try #require(cvita.id))?.href == "\(uid).vcf")

        let bo = try b.person("Bo")
        let boBytes = try b.read("bo-2.vcf")
        let deleted = try b.contacts.delete(ids: [try #require(bo.id)])
        #expect(try !b.files().contains("bo-2.vcf"))
        try b.contacts.restore(deleted)
        #expect(try b.read("bo-2.vcf") == boBytes)
        #expect(try b.books.sync("personal").unchanged == 3)

        let merge = try b.contacts.merge(ids: [try b.id("Ana"), try #require(cvita.id)])
        #expect(merge.person.phones.count == 2)
        #expect(try b.files() == ["ana-1.vcf", "bo-2.vcf"])
        #expect(try b.read("ana-1.vcf").contains("+385913333333"))
    }

    @Test func aContactMovesBetweenBooksAndOutOfThem() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard])
        let other = b.store.folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try b.books.register([AddressBook(name: "personal", kind: .vdir, location: b.folder.path),
                              AddressBook(name: "work", kind: .vdir, location: other.path)])
        _ = try b.books.sync("personal")
        let ana = try b.id("Ana")
        #expect(try b.contacts.move(ids: [ana], toBook: "work") == 1)
        #expect(try b.files().isEmpty)
        let moved = try String(contentsOf: other.appendingPathComponent("ana-1.vcf"), encoding: .utf8)
        #expect(moved.contains("UID:ana-1\r\n") && moved.contains("FN:Ana Horvat"))
        #expect(try b.books.card(personId: ana)?.book == "work")
        #expect(try b.contacts.move(ids: [ana], toBook: "work") == 0)
        #expect(try b.contacts.move(ids: [ana], toBook: nil) == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
        #expect(try b.books.card(personId: ana) == nil && b.contacts.count() == 1)
        #expect(throws: BookError.self) { try b.contacts.move(ids: [ana], toBook: "nowhere") }
    }

    @Test func theBookFilterAndABookThatIsGone() throws {
        let b = try Book(cards: ["ana-1.vcf": anaCard])
        _ = try b.books.sync("personal")
        try b.contacts.insert(person("Dora", "Local"))
        let search = ContactSearch(contacts: b.contacts, ledger: b.store.ledger)
        #expect(try search.people(try ContactQuery("book:personal")).people.map(\.firstName) == ["Ana"])
        #expect(try search.people(try ContactQuery("-book:Personal")).people.map(\.firstName) == ["Dora"])
        #expect(throws: ContactQueryError.unknownBook("work", known: ["personal"])) { try search.people(try ContactQuery("book:work")) }

        // A folder that went away removes nobody.
        try FileManager.default.moveItem(at: b.folder, to: b.store.folder.appendingPathComponent("moved"))
        #expect(throws: BookError.folderMissing(book: "personal", path: b.folder.path)) { try b.books.sync("personal") }
        #expect(try b.contacts.count() == 2)
        // A book taken out of the config keeps its people linked to their cards: nothing is lost, it cannot be synced
        // or added to meanwhile, and when it comes back it syncs again without making anyone twice.
        try FileManager.default.moveItem(at: b.store.folder.appendingPathComponent("moved"), to: b.folder)
        try b.books.register([])
        #expect(try b.contacts.count() == 2)
        #expect(try b.books.card(personId: try b.id("Ana"))?.book == "personal")
        #expect(try b.books.list().isEmpty)
        #expect(throws: BookError.leftOut("personal", people: 1)) { try b.books.sync("personal") }
        #expect(BookError.leftOut("personal", people: 1).description.contains("add its [[books]] entry back"))
        try b.books.register([AddressBook(name: "personal", kind: .vdir, location: b.folder.path)])
        _ = try b.books.sync("personal")
        #expect(try b.contacts.count() == 2)
        #expect(try b.books.list().map(\.people) == [1])
    }
}

@Suite struct VCardPatchTests {
    @Test func managedLinesGoWhereTheFirstStoodAndAnyOtherCardIsLeftAlone() {
        let original = "BEGIN:VCARD\nVERSION:3.0\nX-A:1\nitem1.TEL:+1 555 0100\nitem1.X-ABLabel:office\nFN:Old\nN:Old;;;;\n"
            + "END:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Other\nEND:VCARD\n"
        var person = Person(firstName: "New", lastName: "Name", formattedName: "New Name")
        person.emails = [LabeledEmail(label: "home", address: "new@example.com")]
        let patched = VCardPatch.apply(person, to: original, now: Date(timeIntervalSince1970: 0))
        // The number is gone, and with it the label of its group.
        #expect(patched == "BEGIN:VCARD\nVERSION:3.0\nX-A:1\nFN:New Name\nN:Name;New;;;\nEMAIL;TYPE=home:new@example.com\n"
                + "REV:19700101T000000Z\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Other\nEND:VCARD\n")
    }

    @Test func aGroupedNumberKeepsItsGroupAndLabelKeptOrEditedInPlace() throws {
        let original = "BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nN:;Ana;;;\nitem1.TEL:+385 91 123 4567\nitem1.X-ABLabel:_$!<Mobile>!$_\n"
            + "item2.TEL:+385 1 555 0100\nitem2.X-ABLabel:office\nitem3.EMAIL:ana@example.com\nitem3.X-ABLabel:private\nEND:VCARD\n"
        let parser = try PhoneNumberParser(defaultRegion: "HR")
        var person = Person(firstName: "Ana", formattedName: "Ana")
        // The office number edited, the mobile kept but listed second, the address kept.
        person.phones = [LabeledPhone(label: nil, number: parser.parse("+385 1 555 0199")),
                         LabeledPhone(label: nil, number: parser.parse("+385 91 123 4567"))]
        person.emails = [LabeledEmail(label: nil, address: "ana@example.com")]
        let patched = VCardPatch.apply(person, to: original, now: Date(timeIntervalSince1970: 0))
        #expect(patched == "BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nN:;Ana;;;\nitem2.TEL:+38515550199\nitem1.TEL:+385911234567\n"
                + "item3.EMAIL:ana@example.com\nREV:19700101T000000Z\nitem1.X-ABLabel:_$!<Mobile>!$_\nitem2.X-ABLabel:office\n"
                + "item3.X-ABLabel:private\nEND:VCARD\n")
    }

    @Test func aFileNameIsMadeSafeFromAnyUID() {
        #expect(BookCards.href(for: "abc-123") == "abc-123.vcf")
        #expect(BookCards.href(for: "../../etc/passwd") == "card-.._.._etc_passwd.vcf")
        #expect(BookCards.href(for: "") == "card-.vcf")
    }
}
