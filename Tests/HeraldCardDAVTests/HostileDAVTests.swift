import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldCardDAV
@testable import HeraldStore

/// A server that misbehaves (Fixtures/hostile_dav.py, on a free loopback port): each failure names the book, stores
/// nothing, loses nothing, and the next sync against an honest answer completes.
@Suite(.serialized) struct HostileDAVTests {
    final class Hostile: @unchecked Sendable {
        let folder: TempDir
        var dir: URL { folder.url }
        let port: Int
        let process = Process()
        let database: HeraldDatabase
        var modeFile: URL { dir.appendingPathComponent("mode") }
        var books: AddressBooks { AddressBooks(database: database, parser: try! PhoneNumberParser(defaultRegion: "HR")) }
        var account: CardDAVAccount {
            CardDAVAccount(url: URL(string: "http://127.0.0.1:\(port)/ana/contacts/")!, username: "ana", passwordFile: nil, passwordCommand: "echo pw")
        }

        init() throws {
            folder = try TempDir("hostile-dav")
            let dir = folder.url
            try Data("ok".utf8).write(to: dir.appendingPathComponent("mode"))
            port = try RadicaleServer.freePort()
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hostile_dav.py")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script.path, String(port), dir.appendingPathComponent("mode").path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            try RadicaleServer.waitForPort(port, process: process, log: dir.appendingPathComponent("none"))
            database = try HeraldDatabase.open(inDirectory: dir)
            try books.register([AddressBook(name: "dav", kind: .carddav, location: account.url.absoluteString)])
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func mode(_ text: String) throws { try Data(text.utf8).write(to: modeFile) }
        func sync() async throws -> BookSyncReport { try await CardDAVSync(books: books, account: account).sync("dav") }
        func count() throws -> Int { try ContactStore(database: database).count() }
    }

    @Test func eachFailureNamesTheBookStoresNothingAndTheNextSyncCompletes() async throws {
        let h = try Hostile()
        let expected: [(String, String)] = [
            ("401", "book dav: the server refused the username or password (401)"),
            ("403", "book dav: the server does not let this account do that (403)"),
            ("404", "book dav: there is no address book at http://127.0.0.1:\(h.port)/ana/contacts/ (404)"),
            ("507", "book dav: the server is out of storage (507)"),
            ("doctype", "book dav: the server's answer cannot be used: it declares a DOCTYPE"),
            ("malformed", "book dav: the server's answer cannot be used"),
            ("drop", "book dav: cannot reach http://127.0.0.1:\(h.port)/ana/contacts/"),
        ]
        for (mode, said) in expected {
            try h.mode(mode)
            do {
                _ = try await h.sync()
                Issue.record("\(mode): the sync went through")
            } catch {
                #expect("\(error)".contains(said), "\(mode): \(error)")
                #expect("\(error)".contains("nothing was lost here"), "\(mode): \(error)")
            }
            #expect(try h.count() == 0, "\(mode) stored something")
        }
        try h.mode("ok")
        let report = try await h.sync()
        #expect(report.added == 1)
        #expect(try h.count() == 1)
    }

    @Test(arguments: [("late-doctype", "it declares a DOCTYPE"), ("utf16", "it is UTF-16 or UTF-32")])
    func aDoctypeHiddenPastThePrefixOrInUTF16StoresNothing(_ mode: String, _ said: String) async throws {
        let h = try Hostile()
        try h.mode(mode)
        do {
            let report = try await h.sync()
            Issue.record("\(mode): the sync went through: \(report)")
        } catch {
            #expect("\(error)".contains("book dav: the server's answer cannot be used: \(said)"), "\(mode): \(error)")
            #expect("\(error)".contains("nothing was lost here"), "\(mode): \(error)")
        }
        #expect(try h.count() == 0, "\(mode): the card whose name an entity spelled was stored")
    }

    @Test func aCardOutsideTheCollectionIsNeverReadAndIsReported() async throws {
        let h = try Hostile()
        try h.mode("outside")
        let report = try await h.sync()
        #expect(report.added == 1)
        #expect(report.issues.map(\.file) == ["dav: /other/secret.vcf"])
        #expect(report.issues.first?.message == "is outside the book's collection: ignored")
        #expect(try ContactStore(database: h.database).people().map(\.firstName) == ["Ana"])
    }
}
