import Foundation
import HeraldTestKit
import Testing

/// `herald contacts books discover` against a real Radicale: the account's address books from the server's origin, as
/// JSON of a stable shape; on a wrong password the requests tried, and exit 1; and a `[[books]]` entry with only the
/// origin synced through the executable.
@Suite(.serialized) struct CLIBooksDiscoverTests {
    struct Found: Decodable {
        struct Book: Decodable { var url: String; var name: String; var displayName: String?; var description: String?; var ctag: String? }
        struct Attempt: Decodable { var method: String; var url: String; var asked: String; var status: Int?; var outcome: String }
        var url: String
        var books: [Book]
        var attempts: [Attempt]
        var error: String?
    }

    func sandbox(password: String = RadicaleServer.password) throws -> (CLISandbox, RadicaleServer, URL) {
        let box = try CLISandbox()
        let radicale = try RadicaleServer()
        let file = try box.write("home/dav-password", "\(password)\n")
        chmod(file.path, 0o600)
        return (box, radicale, file)
    }

    @Test func discoverJSONListsTheAccountsBookFromTheOrigin() throws {
        let (box, radicale, password) = try sandbox()
        let origin = "http://127.0.0.1:\(radicale.port)"
        let run = try box.contacts(["books", "discover", "--url", origin, "--username", RadicaleServer.user,
                                    "--password-file", password.path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let found = try JSONDecoder().decode(Found.self, from: Data(run.stdout.utf8))
        #expect(found.error == nil && found.url == origin)
        #expect(found.books.map(\.url) == [radicale.collection.absoluteString])
        #expect(found.books.first?.name == "contacts" && found.books.first?.displayName == "contacts" && found.books.first?.ctag != nil)
        #expect(found.attempts.map(\.method) == ["PROPFIND", "PROPFIND", "PROPFIND", "PROPFIND"])
        #expect(found.attempts[1].status == 301 && found.attempts[1].url == origin + "/.well-known/carddav")
        // Every key is there, null or not.
        let keys = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(Set(keys?.keys.map { $0 } ?? []) == ["url", "books", "attempts", "error"])
        let book = (keys?["books"] as? [[String: Any]])?.first
        #expect(Set(book?.keys.map { $0 } ?? []) == ["url", "name", "displayName", "description", "ctag", "syncToken"])

        let text = try box.contacts(["books", "discover", "--url", origin, "--username", RadicaleServer.user, "--password-file", password.path])
        #expect(text.status == 0 && text.stdout.contains("1 address book at \(origin):\n  \(radicale.collection.absoluteString)  \"contacts\""),
                "\(text.stdout)")
    }

    @Test func aWrongPasswordPrintsWhatWasTriedAndFails() throws {
        let (box, radicale, password) = try sandbox(password: "wrong")
        let origin = "http://127.0.0.1:\(radicale.port)"
        let run = try box.contacts(["books", "discover", "--url", origin + "/", "--username", RadicaleServer.user, "--password-file", password.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("the server refused the username or password (401)"), "\(run.stderr)")
        #expect(run.stderr.contains("PROPFIND \(origin)/ (resourcetype, current-user-principal) → 401 (check the username and password)"), "\(run.stderr)")
        let json = try box.contacts(["books", "discover", "--url", origin, "--username", RadicaleServer.user,
                                     "--password-file", password.path, "--json"])
        #expect(json.status == 1)
        let found = try JSONDecoder().decode(Found.self, from: Data(json.stdout.utf8))
        #expect(found.books.isEmpty && found.error?.contains("no address book found") == true)
        #expect(found.attempts.first?.status == 401)
    }

    @Test func aBookWithOnlyTheOriginSyncs() throws {
        let (box, radicale, password) = try sandbox()
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ana\r\nFN:Ana Horvat\r\nN:Horvat;Ana;;;\r\nTEL;TYPE=cell:+385911111111\r\nEND:VCARD\r\n".utf8)
            .write(to: radicale.collectionFolder.appendingPathComponent("ana.vcf"))
        _ = try box.write("config/herald/config.toml", """
            region = "HR"
            [[books]]
            name = "dav"
            kind = "carddav"
            url = "http://127.0.0.1:\(radicale.port)"
            username = "\(RadicaleServer.user)"
            password_file = "\(password.path)"
            """)
        let sync = try box.contacts(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("dav: 1 added"), "\(sync.stdout)\(sync.stderr)")
        let listed = try box.contacts(["list"])
        #expect(listed.stdout.contains("Ana Horvat"), "\(listed.stdout)")
    }

    @Test func aBareHostIsAServerAndAnEmptyCollectionIsRefusedWithItsLine() throws {
        let box = try CLISandbox()
        func check(_ url: String, collection: String) throws -> CLIRun {
            _ = try box.write("config/herald/config.toml", """
                region = "HR"
                [[books]]
                name = "dav"
                kind = "carddav"
                url = "\(url)"
                collection = "\(collection)"
                username = "ana"
                """)
            return try box.run(["config", "check"])
        }
        let bare = try check("dav.example.com", collection: "work")
        #expect(bare.status == 0 && bare.stdout.contains("no problems"), "\(bare.stdout)\(bare.stderr)")
        let empty = try check("https://dav.example.com", collection: " ")
        #expect(empty.status != 0 && empty.stdout.contains(":2: books[1] (dav) has an empty collection"), "\(empty.stdout)\(empty.stderr)")
        let ftp = try check("ftp://dav.example.com", collection: "work")
        #expect(ftp.status != 0 && ftp.stdout.contains("books[1] (dav) needs url = \"https://…\""), "\(ftp.stdout)\(ftp.stderr)")
    }
}
