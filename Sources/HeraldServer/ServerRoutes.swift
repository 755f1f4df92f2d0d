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
    /// An inbox route: a server key is exchanged for the application code; a user's JWT (a phone's own request)
    /// goes to the engine as it came, and so does the bare application code when the operator allowed it.
    case inbox
    /// An inbox route that changes something (marking seen): as `inbox`, but a viewer key is refused.
    case inboxWrite
    /// A referral link: any key reads one made already; making one needs a sender key.
    case referral
    /// Answered by the server itself, with any server key.
    case server
    /// `/metrics`: open, or a key of the role the operator named (`--metrics-role`).
    case metrics
    /// The carrier's report webhook: no key, the deployment's token in the path (a wrong one is 404).
    case carrierReports
}

/// Every route a Herald server answers; anything else is 404 before any key is looked at.
enum ServerRoutes {
    static let health: PathTemplate = "/health"
    static let live: PathTemplate = "/health/live"
    static let ready: PathTemplate = "/health/ready"
    static let metrics: PathTemplate = "/metrics"
    static let events: PathTemplate = "/1/events"
    static let eventQueue: PathTemplate = "/1/messaging/messages"

    static let table: [(method: HTTPMethod, path: PathTemplate, access: RouteAccess)] = [
        (.get, health, .open),
        (.get, live, .open),
        (.get, ready, .open),
        (.get, metrics, .metrics),
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
        (.get, GetReferralLink.path, .referral),
        (.get, FetchInbox.path, .inbox),
        (.post, MarkInboxSeen.path, .inboxWrite),
        (.post, PlatformEngine.carrierReportsPath, .carrierReports),
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
