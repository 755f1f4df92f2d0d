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

/// One wire route the engine answers: its method, its path, who may call it and the engine's handler.
public struct EngineRoute: Sendable {
    public let method: HTTPMethod
    public let path: PathTemplate
    public let access: RouteAccess
    let answer: @Sendable (PlatformEngine, APIRequest, [String: String]) async throws -> APIResponse

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
    public static let routes: [EngineRoute] = [
        EngineRoute(.post, SendInvitation.path, .send) { engine, request, _ in try await engine.sendInvitations(request) },
        EngineRoute(.get, GetDeliveryInfos.path, .read) { engine, request, p in try await engine.deliveryInfos(request, p) },
        EngineRoute(.get, GetBulkSchedule.path, .read) { engine, request, p in try await engine.bulkSchedule(request, p) },
        EngineRoute(.put, RescheduleBulk.path, .send) { engine, request, p in try await engine.rescheduleBulk(request, p) },
        EngineRoute(.put, CancelBulk.path, .send) { engine, request, p in try await engine.cancelBulk(request, p) },
        EngineRoute(.get, ListOptOuts.path, .read) { engine, request, _ in try await engine.listOptOuts(request) },
        EngineRoute(.put, AddOptOut.path, .send) { engine, request, p in try await engine.addOptOut(request, p) },
        EngineRoute(.delete, RemoveOptOut.path, .send) { engine, request, p in try await engine.removeOptOut(request, p) },
        EngineRoute(.get, GetApplicationMessage.path, .read) { engine, request, p in try await engine.getMessage(request, p) },
        EngineRoute(.post, CreateApplicationMessage.path, .send) { engine, request, p in try await engine.createMessage(request, p) },
        EngineRoute(.put, UpdateApplicationMessage.path, .send) { engine, request, p in try await engine.updateMessage(request, p) },
        EngineRoute(.get, GetApplicationSettings.path, .read) { engine, request, p in try await engine.getSettings(request, p) },
        EngineRoute(.put, UpdateApplicationSettings.path, .admin) { engine, request, p in try await engine.updateSettings(request, p) },
        EngineRoute(.get, GetReferralLink.path, .referral) { engine, request, p in try await engine.referral(request, p) },
        EngineRoute(.get, FetchInbox.path, .inbox) { engine, request, p in try await engine.fetchInbox(request, p) },
        EngineRoute(.post, MarkInboxSeen.path, .inboxWrite) { engine, request, _ in try await engine.markSeen(request) },
        EngineRoute(.get, clickPath, .open) { engine, _, p in try await engine.click(p) },
    ]
}
