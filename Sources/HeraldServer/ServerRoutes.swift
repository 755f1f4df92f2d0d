import HeraldAPI
import HeraldEngine
import Hummingbird

/// One route a Herald server answers: method, path, who may call it, and what answers it (the server itself, or
/// the engine once the caller's key has been exchanged for the application's own credential).
struct ServerRoute: Sendable {
    typealias Answer = @Sendable (ServerHandlers, Request, ServerContext) async throws -> Response

    let method: HTTPMethod
    let path: PathTemplate
    let access: RouteAccess
    let answer: Answer

    init(_ method: HTTPMethod, _ path: PathTemplate, _ access: RouteAccess, _ answer: @escaping Answer) {
        self.method = method
        self.path = path
        self.access = access
        self.answer = answer
    }
}

/// Every route a Herald server answers, in one list: the server's own, then the engine's wire routes
/// (`PlatformEngine.routes`) that the server does not answer itself, each handed to the engine with the route
/// Hummingbird matched (the engine does not look for it again). Anything else is 404 before any key is looked at.
enum ServerRoutes {
    static let health: PathTemplate = "/health"
    static let live: PathTemplate = "/health/live"
    static let ready: PathTemplate = "/health/ready"
    static let metrics: PathTemplate = "/metrics"
    static let events: PathTemplate = "/1/events"

    static let own: [ServerRoute] = [
        ServerRoute(.get, health, .open) { handlers, _, _ in try await handlers.health() },
        ServerRoute(.get, live, .open) { _, _, _ in try WireAnswer.json(["status": "ok"]) },
        ServerRoute(.get, ready, .open) { handlers, _, _ in try await handlers.health() },
        ServerRoute(.get, metrics, .metrics) { handlers, _, _ in await handlers.metricsPage() },
        ServerRoute(.get, GetServerFeatures.path, .open) { handlers, _, _ in try handlers.features() },
        ServerRoute(.get, PlatformEngine.clickPath, .open) { handlers, request, context in try await handlers.click(request, context) },
        ServerRoute(.get, GetServerSession.path, .server) { handlers, _, context in try handlers.session(context) },
        ServerRoute(.get, events, .server) { handlers, request, context in try await handlers.events(request, context) },
        ServerRoute(.get, GetEventQueue.path, .server) { handlers, request, context in try await handlers.queue(request, context) },
        ServerRoute(.post, PlatformEngine.carrierReportsPath, .carrierReports) { handlers, request, context in
            try await handlers.carrierReports(request, context)
        },
        ServerRoute(.post, PlatformEngine.carrierInboundPath, .carrierReports) { handlers, request, context in
            try await handlers.carrierInbound(request, context)
        },
    ]

    static let all: [ServerRoute] = own + PlatformEngine.routes
        .filter { route in !own.contains { $0.method == route.method && $0.path == route.path } }
        .map { route in
            ServerRoute(route.method, route.path, route.access) { handlers, request, context in
                try await handlers.forward(request, context, to: route)
            }
        }
}
