import Foundation

/// What goes in the `Authorization` header.
public enum Credential: Sendable, Hashable {
    /// `App <key>`: an application secret (invitations) or an application code (inbox, sandbox).
    case app(String)
    /// `Bearer <jwt>`: a user's inbox token.
    case bearer(String)

    /// The header value ("App 1234", "Bearer eyJ…").
    public var headerValue: String {
        switch self {
        case .app(let key): return "App \(key)"
        case .bearer(let token): return "Bearer \(token)"
        }
    }

    /// Parses a header value; the scheme is case-insensitive, an empty key is refused.
    public init?(headerValue: String) {
        let trimmed = headerValue.trimmingCharacters(in: .whitespaces)
        guard let space = trimmed.firstIndex(of: " ") else { return nil }
        let scheme = trimmed[..<space].lowercased()
        let value = trimmed[space...].trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        switch scheme {
        case "app": self = .app(value)
        case "bearer": self = .bearer(value)
        default: return nil
        }
    }
}
