import Foundation
import Logging

extension CardDAVSync {
    /// The collection book `name` syncs: its url when that is an address book (or when the server does not say it is
    /// not: the sync's own requests then say what is wrong), else the one discovery finds there, chosen by
    /// `collection = "…"` when the server has several.
    func collection(of name: String, password: String?) async throws(CardDAVError) -> URL {
        let discovery = CardDAVDiscovery(url: account.url, username: account.username, password: password)
        if account.collection == nil, await discovery.probe() != .notAddressBook { return account.url }
        let found: DiscoveryResult
        do { found = try await discovery.discover() } catch {
            throw .discovery(book: name, why: "url \(account.url.absoluteString) is not an address book, and discovery found none: \(error)")
        }
        let list = found.books.map(\.summary).joined(separator: "; ")
        let chosen: DiscoveredBook
        if let wanted = account.collection {
            let named = found.books.filter { $0.isNamed(wanted) }
            guard named.count == 1 else {
                throw .discovery(book: name, why: named.isEmpty
                    ? "collection = \"\(wanted)\" names none of the address books at \(account.url.absoluteString) (\(list)): use one of their names or URLs"
                    : "collection = \"\(wanted)\" names several address books at \(account.url.absoluteString) (\(list)): use the full URL of one as url")
            }
            chosen = named[0]
        } else {
            guard found.books.count == 1 else {
                throw .discovery(book: name, why: "url \(account.url.absoluteString) holds \(found.books.count) address books (\(list)): "
                                 + "pick one with collection = \"NAME\" (its last path segment or display name) or set url to its full URL")
            }
            chosen = found.books[0]
        }
        Logger(label: "herald.carddav").notice("CardDAV book discovered", metadata: [
            "book": "\(name)", "url": "\(account.url.absoluteString)", "collection": "\(chosen.url.absoluteString)",
        ])
        return chosen.url
    }
}
