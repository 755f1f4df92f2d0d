import HTTPTypes
import HeraldAPI
import HeraldEngine
import Hummingbird
import HummingbirdAuth

/// The server's router, built from `ServerRoutes.all`: one route collection per access rule, each behind its group's
/// middleware (model: hummingbird-examples' `auth-jwt`). A keyed group authenticates from the head alone
/// (`ServerAuthenticator`), then hummingbird-auth's policy middleware checks the role the group needs; only then does
/// a handler read a body. A path that exists under other methods answers 405; anything else 404, before any key.
enum ServerRouter {
    static func build(handlers: ServerHandlers, engine: PlatformEngine, options: ServerOptions, metrics: ServerMetrics) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ExchangeMiddleware(options: options, metrics: metrics))
        let failures = AddressThrottle(limit: options.authFailuresPerMinute, window: 60)
        for access in RouteAccess.allCases {
            let routes = ServerRoutes.all.filter { $0.access == access }
            guard !routes.isEmpty else { continue }
            let collection = RouteCollection(context: ServerContext.self)
            if access != .open, !(access == .metrics && options.metricsRole == nil) {
                collection.add(middleware: ServerAuthenticator(access: access, engine: engine, options: options, failures: failures))
                collection.add(middleware: IsAuthenticatedMiddleware())
                if let policy = RoutePolicy.of(access, metricsRole: options.metricsRole) { collection.add(middleware: policy.middleware) }
            }
            for route in routes {
                let answer = route.answer
                collection.on(RouterPath(route.path.description), method: HTTPRequest.Method(route.method)) { request, context in
                    try await answer(handlers, request, context)
                }
            }
            router.addRoutes(collection)
        }
        refuseOtherMethods(on: router)
        return router
    }

    /// Every known path answers 405 to a method none of its routes has.
    private static func refuseOtherMethods(on router: Router<ServerContext>) {
        let known = Dictionary(grouping: router.routes, by: { $0.path.description }).mapValues { Set($0.map(\.method)) }
        let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch, .options]
        for (path, taken) in known {
            for method in methods where !taken.contains(method) {
                router.on(RouterPath(path), method: method) { request, _ -> Response in
                    throw APIError.server(status: 405, text: "\(request.method.rawValue) is not allowed on \(request.uri.path)")
                }
            }
        }
    }
}

extension HTTPRequest.Method {
    init(_ method: HTTPMethod) {
        self = HTTPRequest.Method(method.rawValue)!
    }
}
