import Foundation
import HeraldCore

/// An address book CardDAV discovery found: its collection URL and what the server says of it.
public struct DiscoveredBook: Sendable, Equatable {
    /// The collection, its path ending in `/`.
    public var url: URL
    /// The collection's last path segment, decoded (`contacts` of `/ana/contacts/`): what `collection = "…"` names.
    public var name: String
    public var displayName: String?
    public var description: String?
    public var ctag: String?
    public var syncToken: String?

    /// Whether `choice` (from `collection = "…"`) names this book: its full URL, its path, its last segment or its
    /// display name (case-insensitive).
    public func isNamed(_ choice: String) -> Bool {
        func trimmed(_ s: String) -> String { (s.hasSuffix("/") ? String(s.dropLast()) : s).lowercased() }
        let wanted = trimmed(choice)
        return wanted == trimmed(url.absoluteString) || wanted == trimmed(url.path) || wanted == trimmed(name)
            || displayName.map { $0.lowercased() == choice.lowercased() } ?? false
    }

    /// One line for people: the URL, then the display name and description when the server gives them.
    public var summary: String {
        var line = url.absoluteString
        if let displayName { line += "  \"\(displayName)\"" }
        if let description { line += "  (\(description))" }
        return TerminalSafeText.sanitize(line)
    }
}

/// One request discovery made and what the server answered, to say exactly what was tried when nothing is found.
public struct DiscoveryAttempt: Sendable, Equatable, CustomStringConvertible {
    public var method: String
    public var url: String
    /// What was asked (`current-user-principal`, `addressbook-home-set`, `Depth 1: the address books`).
    public var asked: String
    /// The HTTP status, nil when there was no answer or the request was not made.
    public var status: Int?
    /// What the answer meant (`→ 301 → https://x/dav/`, `401 (check the username and password)`).
    public var outcome: String

    public var description: String {
        TerminalSafeText.sanitize("\(method) \(url) (\(asked)) → \(outcome)")
    }
}

/// CardDAV discovery that found no address book: why, and every request tried with its answer.
public struct DiscoveryFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var attempts: [DiscoveryAttempt]

    public var description: String {
        var text = reason
        if attempts.contains(where: { $0.status == 401 }) { text += "; the server refused the username or password (401): check them" }
        text += ". Tried:"
        for attempt in attempts { text += "\n  \(attempt)" }
        return TerminalSafeText.sanitize(text, singleLine: false)
    }
}

/// What discovery found: the address books, and the requests it took to find them.
public struct DiscoveryResult: Sendable, Equatable {
    public var books: [DiscoveredBook]
    public var attempts: [DiscoveryAttempt]
}
