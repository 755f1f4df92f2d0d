import HeraldAPI

/// Who may call a route of a Herald platform, and what the engine is handed as the credential. The embedded
/// platform checks the application's own credential itself; a Herald server judges a caller by this rule before the
/// engine sees the request.
public enum RouteAccess: Sendable, Hashable, CaseIterable {
    /// No key needed (health, features, a short link's landing).
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
    /// Answered by a server itself, with any server key.
    case server
    /// `/metrics`: open, or a key of the role the operator named.
    case metrics
    /// The carrier's report webhook: no key, the deployment's token in the path (a wrong one is 404).
    case carrierReports
}

/// One wire route the engine answers: its method, its path, who may call it and the engine's answer. A typed route
/// (`init(_:_:status:whenNoBody:_:)`, in EngineCall.swift) is built from its `Endpoint`; the adapter admits the
/// caller, decodes the body and encodes the answer, so its handler only does the route's own work.
public struct EngineRoute: Sendable {
    public let method: HTTPMethod
    public let path: PathTemplate
    public let access: RouteAccess
    let answer: @Sendable (PlatformEngine, APIRequest, [String: String]) async throws -> APIResponse

    /// A route answered as it is (a short link's landing: no endpoint type, no caller).
    init(_ method: HTTPMethod, _ path: PathTemplate, _ access: RouteAccess,
         _ answer: @escaping @Sendable (PlatformEngine, APIRequest, [String: String]) async throws -> APIResponse) {
        self.method = method
        self.path = path
        self.access = access
        self.answer = answer
    }
}

extension PlatformEngine {
    /// Every wire route of the platform, the one list both `handle(_:)` and a Herald server's router are built from.
    /// Each area declares its routes next to their handlers (model: hummingbird-examples' `TodoController.endpoints`).
    public static let routes: [EngineRoute] =
        sendingRoutes + heldSendRoutes + optOutRoutes + messageRoutes + shortLinkRoutes + inboxRoutes + auditRoutes
            + conversationRoutes
}
