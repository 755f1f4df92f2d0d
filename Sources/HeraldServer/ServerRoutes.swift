import HeraldAPI
import HeraldEngine

/// Who may call a route and what the engine is handed as its credential.
enum RouteAccess: Sendable, Hashable {
    /// No key needed (health, features, metrics, a short link's landing).
    case open
    /// Read with any server key; the engine gets the application secret.
    case read
    /// A sender or admin key; the engine gets the application secret.
    case send
    /// An admin key (application settings).
    case admin
    /// An inbox route: a server key is exchanged for the application code; an application code or a user's
    /// JWT (a phone's own request) goes to the engine as it came.
    case inbox
    /// Answered by the server itself, with any server key.
    case server
}

/// Every route a Herald server answers; anything else is 404 before any key is looked at.
enum ServerRoutes {
    static let health: PathTemplate = "/health"
    static let metrics: PathTemplate = "/metrics"
    static let events: PathTemplate = "/1/events"
    static let eventQueue: PathTemplate = "/1/messaging/messages"

    static let table: [(method: HTTPMethod, path: PathTemplate, access: RouteAccess)] = [
        (.get, health, .open),
        (.get, metrics, .open),
        (.get, GetServerFeatures.path, .open),
        (.get, PlatformEngine.clickPath, .open),
        (.get, GetServerSession.path, .server),
        (.get, events, .server),
        (.get, eventQueue, .server),
        (.post, SendInvitation.path, .send),
        (.get, GetDeliveryInfos.path, .read),
        (.get, GetApplicationMessage.path, .read),
        (.post, CreateApplicationMessage.path, .send),
        (.put, UpdateApplicationMessage.path, .send),
        (.get, GetApplicationSettings.path, .read),
        (.put, UpdateApplicationSettings.path, .admin),
        (.get, GetReferralLink.path, .read),
        (.get, FetchInbox.path, .inbox),
        (.post, MarkInboxSeen.path, .inbox),
    ]

    /// The access rule and template of a request; nil when no route has this method and path.
    static func match(method: HTTPMethod?, path: String) -> (access: RouteAccess, template: PathTemplate)? {
        for route in table where route.method == method && route.path.match(path) != nil {
            return (route.access, route.path)
        }
        return nil
    }

    /// Whether some route has this path (under another method: 405, not 404).
    static func pathExists(_ path: String) -> Bool {
        table.contains { $0.path.match(path) != nil }
    }
}
