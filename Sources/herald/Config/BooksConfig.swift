import Foundation
import HeraldCardDAV
import HeraldStore
import TOMLKit

extension HeraldConfig {
    /// The keys a `[[books]]` entry may hold.
    static let knownBook: Set<String> = ["name", "kind", "path", "url", "collection", "username", "password_file", "password_command"]

    /// `~/…` in a path: the user's home ($HOME, as the shell reads it).
    static func expandingHome(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"], !home.isEmpty else { return path }
        return home + path.dropFirst()
    }

    /// `[[books]]`: each with a name (letters, digits, `-`, `_`; not used twice), a kind and its folder (`~` is home).
    static func parseBooks(_ value: TOMLValueConvertible, file: String, lines: ConfigLines, warnings: inout [String]) throws
        -> ([AddressBook], [String: CardDAVAccount]) {
        guard let array = value.array else {
            throw ConfigError(file: file, line: lines.line(of: "books"), message: "books must be written [[books]], one table per address book")
        }
        var books: [AddressBook] = []
        var accounts: [String: CardDAVAccount] = [:]
        for (i, item) in array.enumerated() {
            let at = "books[\(i + 1)]"
            guard let table = item.table else { throw ConfigError(file: file, line: lines.line(of: at), message: "\(at) must be a table: [[books]] then name = …") }
            for key in table.keys.sorted() where !knownBook.contains(key) {
                warnings.append("\(ConfigError.place(file, lines.line(of: "\(at).\(key)"))): unknown key \"\(at).\(key)\" ignored (known: \(knownBook.sorted().joined(separator: ", ")))")
            }
            guard let name = table["name"]?.string, !name.isEmpty, name.count <= 64,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                throw ConfigError(file: file, line: lines.line(of: at), message: "\(at).name must be a word of letters, digits, - or _ (at most 64), like name = \"personal\"")
            }
            guard !books.contains(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw ConfigError(file: file, line: lines.line(of: at), message: "\(at).name \"\(name)\" is used by an earlier book: each book needs its own name")
            }
            let kind = table["kind"]?.string ?? "vdir"
            guard let parsed = AddressBook.Kind(rawValue: kind) else {
                throw ConfigError(file: file, line: lines.line(of: at), message: "\(at).kind \"\(kind)\" is not one of vdir, carddav")
            }
            if parsed == .carddav {
                // The collection, or the server (a bare host is https) where discovery finds it at sync time.
                guard let text = table["url"]?.string, let url = CardDAVDiscovery.url(from: text) else {
                    throw ConfigError(file: file, line: lines.line(of: at),
                                      message: "\(at) (\(name)) needs url = \"https://…\": its address book collection, or the server (https://dav.example.com) to find it there")
                }
                let collection = table["collection"]?.string
                if let collection, collection.trimmingCharacters(in: .whitespaces).isEmpty {
                    throw ConfigError(file: file, line: lines.line(of: at),
                                      message: "\(at) (\(name)) has an empty collection: name one of the address books herald contacts books discover lists, or leave it out")
                }
                let passwordFile = table["password_file"]?.string.map { expandingHome($0) }
                let passwordCommand = table["password_command"]?.string
                if passwordFile != nil && passwordCommand != nil {
                    throw ConfigError(file: file, line: lines.line(of: at), message: "\(at) (\(name)) sets both password_file and password_command: keep one")
                }
                books.append(AddressBook(name: name, kind: .carddav, location: url.absoluteString))
                accounts[name] = CardDAVAccount(url: url, username: table["username"]?.string, passwordFile: passwordFile,
                                                passwordCommand: passwordCommand, collection: collection)
                continue
            }
            guard let path = table["path"]?.string, !path.isEmpty else {
                throw ConfigError(file: file, line: lines.line(of: at), message: "\(at) (\(name)) needs path = \"…\": the folder of its .vcf files")
            }
            books.append(AddressBook(name: name, kind: parsed, location: expandingHome(path)))
        }
        return (books, accounts)
    }
}
