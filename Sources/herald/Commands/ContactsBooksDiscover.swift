import ArgumentParser
import Foundation
import HeraldCardDAV
import HeraldCore

/// `herald contacts books discover --url URL --username U --password-file F`: the address books a CardDAV server
/// publishes for the account (RFC 6764 well-known URI, current-user-principal, addressbook-home-set).
struct ContactsBooksDiscover: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover", abstract: "List the address books of a CardDAV account, to choose one for [[books]].",
        discussion: """
            Give the server (https://dav.example.com, or only its host: https is assumed), a principal URL or a \
            collection's own URL. Herald asks the URL itself, then /.well-known/carddav, for the account's principal \
            (current-user-principal), the principal for its address-book home set, and the home set for its address \
            books, and prints each with its display name and description. When none is found it prints every request \
            it made and what the server answered (401: the username or password is wrong). Redirects are followed \
            within the same server only (--allow-host names another), and never from https to http.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "The server, a principal or a collection: https://dav.example.com, or only the host.")
    var url: String

    @Option(help: "The account's username.")
    var username: String?

    @Option(help: ArgumentHelp("A file whose first line is the password (readable by you only).", valueName: "file"),
            completion: .file())
    var passwordFile: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("Another host redirects and the server's links may lead to (repeatable).", valueName: "host"))
    var allowHosts: [String] = []

    @Flag(help: "Print JSON: {url, books: [{url, name, displayName, description, ctag, syncToken}], attempts: [...], error}.")
    var json = false

    func run() async throws {
        guard let start = CardDAVDiscovery.url(from: url) else {
            throw Output.failure("--url \"\(Output.safe(url))\" is neither an http(s) URL nor a host: give https://dav.example.com or dav.example.com")
        }
        var password: String?
        if let passwordFile {
            let file = URL(fileURLWithPath: HeraldConfig.expandingHome(passwordFile))
            let text: String
            do { text = try String(contentsOf: file, encoding: .utf8) } catch {
                throw Output.failure("--password-file \(file.path) cannot be read: \(error.localizedDescription)")
            }
            GlobalOptions.warnIfOthersCanRead(file, holding: "a password")
            password = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        if let warning = CardDAVAccount(url: start, username: username, passwordFile: nil, passwordCommand: nil).cleartextWarning {
            Output.warn(warning)
        }
        let discovery = CardDAVDiscovery(url: start, username: username, password: password, allowedHosts: Set(allowHosts))
        let found: DiscoveryResult
        do { found = try await discovery.discover() } catch {
            if json {
                print(try Output.json(DiscoverJSON(url: start.absoluteString, books: [], attempts: error.attempts, error: error.reason)))
                throw ExitCode(1)
            }
            throw Output.failure(error.description)
        }
        if json {
            print(try Output.json(DiscoverJSON(url: start.absoluteString, books: found.books, attempts: found.attempts, error: nil)))
            return
        }
        print("\(found.books.count) address book\(found.books.count == 1 ? "" : "s") at \(Output.safe(start.absoluteString)):")
        for book in found.books { print("  \(book.summary)") }
        if let example = found.books.first {
            print("In [[books]] (kind = \"carddav\"): url = \"\(Output.safe(example.url.absoluteString))\", "
                  + "or url = \"\(Output.safe(start.absoluteString))\" with collection = \"\(Output.safe(example.name))\".")
        }
    }
}

/// `contacts books discover --json`: every key always present (null when the server gave nothing).
struct DiscoverJSON: Encodable {
    var url: String
    var books: [DiscoveredBook]
    var attempts: [DiscoveryAttempt]
    var error: String?

    enum Keys: String, CodingKey { case url, books, attempts, error }
    enum BookKeys: String, CodingKey { case url, name, displayName, description, ctag, syncToken }
    enum AttemptKeys: String, CodingKey { case method, url, asked, status, outcome }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(url, forKey: .url)
        try c.encode(error, forKey: .error)
        var list = c.nestedUnkeyedContainer(forKey: .books)
        for book in books {
            var b = list.nestedContainer(keyedBy: BookKeys.self)
            try b.encode(book.url.absoluteString, forKey: .url)
            try b.encode(book.name, forKey: .name)
            try b.encode(book.displayName, forKey: .displayName)
            try b.encode(book.description, forKey: .description)
            try b.encode(book.ctag, forKey: .ctag)
            try b.encode(book.syncToken, forKey: .syncToken)
        }
        var tried = c.nestedUnkeyedContainer(forKey: .attempts)
        for attempt in attempts {
            var a = tried.nestedContainer(keyedBy: AttemptKeys.self)
            try a.encode(attempt.method, forKey: .method)
            try a.encode(attempt.url, forKey: .url)
            try a.encode(attempt.asked, forKey: .asked)
            try a.encode(attempt.status, forKey: .status)
            try a.encode(attempt.outcome, forKey: .outcome)
        }
    }
}
