import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldCardDAV
@testable import HeraldStore

/// A Herald store and a real Radicale: a CardDAV book synced both ways.
final class DAVBook: @unchecked Sendable {
    let folder: TempDir
    var dir: URL { folder.url }
    let database: HeraldDatabase
    let server: RadicaleServer
    let parser = try! PhoneNumberParser(defaultRegion: "HR")
    var books: AddressBooks { AddressBooks(database: database, parser: parser) }
    var contacts: ContactStore { ContactStore(database: database) }
    var account: CardDAVAccount { CardDAVAccount(url: server.collection, username: RadicaleServer.user, passwordFile: passwordFile.path, passwordCommand: nil) }
    var passwordFile: URL { dir.appendingPathComponent("password") }
    /// Another CardDAV client (a phone, Nextcloud's web page) writing to the same collection.
    var other: CardDAVClient { CardDAVClient(book: "other", collection: server.collection, username: RadicaleServer.user, password: RadicaleServer.password) }

    init() throws {
        folder = try TempDir("dav")
        let dir = folder.url
        try Data("\(RadicaleServer.password)\n".utf8).write(to: dir.appendingPathComponent("password"))
        database = try HeraldDatabase.open(inDirectory: dir)
        server = try RadicaleServer()
        try books.register([AddressBook(name: "dav", kind: .carddav, location: server.collection.absoluteString)])
    }

    func sync() async throws -> BookSyncReport { try await CardDAVSync(books: books, account: account).sync("dav") }
    func person(_ first: String) throws -> Person? { try contacts.people().first { $0.firstName == first } }
    func serverCard(_ name: String) async throws -> String? {
        try await other.cards([name]).first.map { String(decoding: $0.card, as: UTF8.self) }
    }
    func serverEtag(_ name: String) async throws -> String? { try await other.cards([name]).first?.etag }

    static func card(_ uid: String, _ first: String, _ last: String, tel: String, extra: String = "") -> Data {
        Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(first) \(last)\r\nN:\(last);\(first);;;\r\nTEL;TYPE=cell:\(tel)\r\n\(extra)END:VCARD\r\n".utf8)
    }
}

@Suite(.serialized) struct CardDAVSyncTests {
    @Test func aFirstSyncReadsEveryCardAndASecondFindsNothingToDo() async throws {
        let b = try DAVBook()
        for i in 0..<3 {
            _ = try await b.other.put("p\(i).vcf", card: DAVBook.card("p\(i)", "Person\(i)", "Dav", tel: "+38591000000\(i)"), ifMatch: nil)
        }
        let first = try await b.sync()
        #expect(first.added == 3 && first.issues.isEmpty)
        #expect(try b.contacts.count() == 3)
        #expect(try b.person("Person1")?.phones.first?.number.e164 == "+385910000001")
        let second = try await b.sync()
        #expect(second.added == 0 && second.updated == 0 && second.removed == 0 && second.pushed == 0)
        #expect(try b.books.remoteState("dav").token != nil)
    }

    @Test func editsGoUpOverTheVersionSeenAndTheServersChangesComeDown() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Horvat", tel: "+385911111111", extra: "X-PHONE-APP:kept\r\n"), ifMatch: nil)
        _ = try await b.sync()
        let ana = try #require(try b.person("Ana"))
        var draft = ContactDraft(ana)
        draft.organization = "Acme"
        _ = try b.contacts.save(draft, personId: try #require(ana.id), parser: b.parser)
        let up = try await b.sync()
        #expect(up.pushed == 1 && up.conflicts == 0)
        let onServer = try #require(try await b.serverCard("ana.vcf"))
        #expect(onServer.contains("ORG:Acme") && onServer.contains("X-PHONE-APP:kept") && onServer.contains("UID:ana"))

        // Another client changes the card: the next sync brings it down.
        let etag = try #require(try await b.serverEtag("ana.vcf"))
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Kovač", tel: "+385911111111"), ifMatch: etag)
        let down = try await b.sync()
        #expect(down.updated == 1 && down.pushed == 0)
        #expect(try b.person("Ana")?.lastName == "Kovač")
    }

    @Test func aCardChangedOnBothSidesKeepsTheServersAndHeraldsIsAConflictToSettle() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Horvat", tel: "+385911111111"), ifMatch: nil)
        _ = try await b.sync()
        let etag = try #require(try await b.serverEtag("ana.vcf"))
        _ = try await b.other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Server", tel: "+385911111111"), ifMatch: etag)
        let ana = try #require(try b.person("Ana"))
        var draft = ContactDraft(ana)
        draft.lastName = "Herald"
        _ = try b.contacts.save(draft, personId: try #require(ana.id), parser: b.parser)

        let sync = try await b.sync()
        #expect(sync.conflicts == 1 && sync.pushed == 0)
        #expect(try b.person("Ana")?.lastName == "Server")
        #expect(try await b.serverCard("ana.vcf")?.contains("N:Server;Ana") == true)
        let conflicts = try b.books.conflicts()
        #expect(conflicts.count == 1 && conflicts.first?.mine.contains("N:Herald;Ana") == true)

        #expect(try b.books.resolve(personId: try #require(ana.id), keepMine: true))
        #expect(try b.person("Ana")?.lastName == "Herald")
        let after = try await b.sync()
        #expect(after.pushed == 1 && after.conflicts == 0)
        #expect(try await b.serverCard("ana.vcf")?.contains("N:Herald;Ana") == true)
        #expect(try b.books.conflicts().isEmpty)
    }

    @Test func aNewContactAndADeleteReachTheServer() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("bo.vcf", card: DAVBook.card("bo", "Bo", "Kim", tel: "+385912222222"), ifMatch: nil)
        _ = try await b.sync()
        var draft = ContactDraft()
        draft.firstName = "Cvita"
        draft.phones = [ContactDraft.Labeled(label: "mobile", value: "091 333 3333")]
        let cvita = try b.contacts.add(draft, parser: b.parser, book: "dav")
        let bo = try #require(try b.person("Bo"))
        _ = try b.contacts.delete(ids: [try #require(bo.id)])
        let sync = try await b.sync()
        #expect(sync.pushed == 2)
        #expect(try await b.serverCard("bo.vcf") == nil)
        let cvitaId = try #require(cvita.id)
        let name = try #require(try b.books.card(personId: cvitaId)?.href)
        #expect(try await b.serverCard(name)?.contains("TEL;TYPE=cell:+385913333333") == true)
        let again = try await b.sync()
        #expect(again.added == 0 && again.removed == 0 && again.pushed == 0)
        #expect(try b.contacts.count() == 1)
    }

    @Test func aWrongPasswordIsSaidWithTheBookAndNothingIsLost() async throws {
        let b = try DAVBook()
        _ = try await b.other.put("bo.vcf", card: DAVBook.card("bo", "Bo", "Kim", tel: "+385912222222"), ifMatch: nil)
        _ = try await b.sync()
        try Data("wrong\n".utf8).write(to: b.passwordFile)
        await #expect(throws: CardDAVError.self) { _ = try await b.sync() }
        do { _ = try await b.sync() } catch {
            #expect("\(error)".contains("book dav: the server refused the username or password (401)"))
        }
        #expect(try b.contacts.count() == 1)
    }
}
