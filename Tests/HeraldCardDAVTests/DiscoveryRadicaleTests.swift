import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldTestKit
import NIOCore
import NIOHTTP1
import Testing
@testable import HeraldCardDAV
@testable import HeraldStore

/// Discovery against a real Radicale (3.1: `/.well-known/carddav` redirects to `/`, which names the principal `/ana/`,
/// whose home set is `/ana/`), holding two address books of ana's.
@Suite(.serialized) struct DiscoveryRadicaleTests {
    final class Server: @unchecked Sendable {
        let radicale: RadicaleServer
        var origin: URL { URL(string: "http://127.0.0.1:\(radicale.port)/")! }
        var work: URL { origin.appendingPathComponent("ana/work/", isDirectory: true) }

        /// Radicale (this one, else a new one) with ana's `contacts` (made by the test kit) and `work`, made here by an
        /// extended MKCOL (RFC 5689).
        init(_ running: RadicaleServer? = nil) async throws {
            radicale = try running ?? RadicaleServer()
            var request = HTTPClientRequest(url: work.absoluteString)
            request.method = .RAW(value: "MKCOL")
            request.headers.add(name: "Authorization", value: "Basic " + Data("ana:\(RadicaleServer.password)".utf8).base64EncodedString())
            request.body = .bytes(ByteBuffer(string: """
                <?xml version="1.0" encoding="utf-8"?>
                <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>\
                <D:resourcetype><D:collection/><C:addressbook/></D:resourcetype><D:displayname>Work</D:displayname>\
                <C:addressbook-description>Colleagues</C:addressbook-description></D:prop></D:set></D:mkcol>
                """))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status.code == 201, "MKCOL answered \(response.status)")
        }

        func discovery(_ url: URL, password: String = RadicaleServer.password) -> CardDAVDiscovery {
            CardDAVDiscovery(url: url, username: RadicaleServer.user, password: password)
        }
    }

    func expectBothBooks(_ found: DiscoveryResult, _ s: Server) {
        let books = found.books.sorted { $0.url.absoluteString < $1.url.absoluteString }
        #expect(books.map(\.url) == [s.radicale.collection, s.work])
        #expect(books.map(\.name) == ["contacts", "work"])
        #expect(books.map(\.displayName) == ["contacts", "Work"])
        #expect(books.map(\.description) == [nil, "Colleagues"])
        #expect(books.allSatisfy { $0.ctag != nil && $0.syncToken != nil })
    }

    @Test func theBareOriginFindsTheAccountsAddressBooks() async throws {
        let s = try await Server()
        let found = try await s.discovery(s.origin).discover()
        expectBothBooks(found, s)
        let tried = found.attempts.map(\.description)
        #expect(tried.count == 4, "\(tried)")
        #expect(tried[0].hasPrefix("PROPFIND \(s.origin.absoluteString) (resourcetype, current-user-principal) → 207: principal /ana/"), "\(tried)")
        #expect(tried[1].contains(".well-known/carddav (current-user-principal) → 301 → \(s.origin.absoluteString), answered above"), "\(tried)")
        #expect(tried[2].contains("/ana/ (addressbook-home-set) → 207: home set /ana/"), "\(tried)")
        #expect(tried[3].contains("(Depth 1: the address books) → 207, 2 address books"), "\(tried)")
    }

    @Test func theWellKnownURIAndAPrincipalFindTheSame() async throws {
        let s = try await Server()
        let wellKnown = try await s.discovery(s.origin.appendingPathComponent(".well-known/carddav")).discover()
        expectBothBooks(wellKnown, s)
        #expect(wellKnown.attempts.first?.status == 301)
        let principal = try await s.discovery(s.origin.appendingPathComponent("ana/", isDirectory: true)).discover()
        expectBothBooks(principal, s)
        #expect(principal.attempts.count == 2, "the principal names its home set: no well-known needed: \(principal.attempts)")
    }

    @Test func aURLThatIsACollectionIsTakenAsItIs() async throws {
        let s = try await Server()
        let found = try await s.discovery(s.work).discover()
        #expect(found.books.map(\.url) == [s.work] && found.books.first?.displayName == "Work")
        #expect(found.attempts.count == 1)
        #expect(await s.discovery(s.work).probe() == .addressBook)
        #expect(await s.discovery(s.origin).probe() == .notAddressBook)
    }

    @Test func aWrongPasswordSays401AndWhatWasTried() async throws {
        let s = try await Server()
        let failure = await #expect(throws: DiscoveryFailure.self) { try await s.discovery(s.origin, password: "wrong").discover() }
        let text = failure?.description ?? ""
        #expect(text.contains("the server refused the username or password (401)"), "\(text)")
        #expect(text.contains("PROPFIND \(s.origin.absoluteString) (resourcetype, current-user-principal) → 401 (check the username and password)"), "\(text)")
        #expect(text.contains("PROPFIND \(s.origin.absoluteString).well-known/carddav (current-user-principal) → 301 → \(s.origin.absoluteString)"), "\(text)")
        #expect(failure?.attempts.count == 2)
    }

    @Test func nothingListeningSaysSo() async throws {
        let port = try RadicaleServer.freePort()
        let failure = await #expect(throws: DiscoveryFailure.self) {
            try await CardDAVDiscovery(url: URL(string: "http://127.0.0.1:\(port)")!, username: "ana", password: "pw", timeout: 2).discover()
        }
        #expect(failure?.attempts.count == 2 && failure?.attempts.allSatisfy { $0.status == nil && $0.outcome.hasPrefix("no answer") } == true,
                "\(failure?.description ?? "")")
    }

    /// A `[[books]]` entry with only the server's origin syncs the account's one address book; with two it names them.
    @Test func aBookWithOnlyTheOriginSyncsTheOneBookAndAsksWhichOfSeveral() async throws {
        let folder = try TempDir("dav-discover")
        try Data("\(RadicaleServer.password)\n".utf8).write(to: folder.url.appendingPathComponent("password"))
        let database = try HeraldDatabase.open(inDirectory: folder.url)
        let books = AddressBooks(database: database, parser: try PhoneNumberParser(defaultRegion: "HR"))
        let radicale = try RadicaleServer()
        let origin = URL(string: "http://127.0.0.1:\(radicale.port)")!
        try books.register([AddressBook(name: "dav", kind: .carddav, location: origin.absoluteString)])
        let account = CardDAVAccount(url: origin, username: RadicaleServer.user,
                                     passwordFile: folder.url.appendingPathComponent("password").path, passwordCommand: nil)
        let other = CardDAVClient(book: "other", collection: radicale.collection, username: RadicaleServer.user, password: RadicaleServer.password)
        _ = try await other.put("ana.vcf", card: DAVBook.card("ana", "Ana", "Horvat", tel: "+385911111111"), ifMatch: nil)

        let report = try await CardDAVSync(books: books, account: account).sync("dav")
        #expect(report.added == 1 && report.issues.isEmpty, "\(report)")
        #expect(try ContactStore(database: database).people().map(\.firstName) == ["Ana"])

        // A second book: which one is no longer clear.
        let s = try await Server(radicale)
        await #expect {
            _ = try await CardDAVSync(books: books, account: account).sync("dav")
        } throws: { error in
            let text = "\(error)"
            return text.contains("holds 2 address books") && text.contains(s.work.absoluteString) && text.contains("\"Work\"  (Colleagues)")
                && text.contains("pick one with collection = \"NAME\"")
        }
        var chosen = account
        chosen.collection = "contacts"
        let again = try await CardDAVSync(books: books, account: chosen).sync("dav")
        #expect(again.added == 0 && again.unchanged == 1 && again.removed == 0, "the same collection as before: \(again)")
        chosen.collection = "Personal"
        await #expect {
            _ = try await CardDAVSync(books: books, account: chosen).sync("dav")
        } throws: { "\($0)".contains("collection = \"Personal\" names none of the address books") }
    }
}
