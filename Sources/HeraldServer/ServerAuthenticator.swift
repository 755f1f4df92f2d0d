import HeraldAPI
import HeraldEngine
import Hummingbird
import HummingbirdAuth
import Logging

/// The authentication of a route group: who is asking, judged from the headers (or, for the carrier, the path's
/// token) before any body is read. A caller who cannot be admitted is answered 401 (the carrier's webhook: 404, as
/// a path that does not exist), and a client address that keeps failing is answered 429 without a look at the
/// database.
struct ServerAuthenticator: AuthenticatorMiddleware {
    typealias Context = ServerContext

    let access: RouteAccess
    let engine: PlatformEngine
    let options: ServerOptions
    let failures: AddressThrottle
    let log = Logger(label: "herald.server")

    func authenticate(request: Request, context: ServerContext) async throws -> Caller? {
        let client = context.clientAddress
        if let wait = failures.retryAfter(client) { throw APIError.tooManyRequests(retryAfter: wait) }
        do {
            let caller = try await identify(request)
            if case .key(let holder) = caller {
                context.exchange.keyName = holder.key.name
                context.exchange.masksNumbers = options.masksNumbers(for: holder.key.role)
            }
            return caller
        } catch APIError.unauthorized {
            if let wait = failures.count(client) {
                log.notice("client locked out after failed authentications", metadata: ["client": "\(client)"])
                throw APIError.tooManyRequests(retryAfter: wait)
            }
            if access == .carrierReports { throw APIError.notFound("no endpoint POST \(request.uri.path)") }
            throw APIError.unauthorized
        }
    }

    private func identify(_ request: Request) async throws -> Caller {
        let path = request.uri.path
        if access == .carrierReports {
            // The token is the key (the report and the inbound webhook share it): a wrong one counts as a failure.
            guard let token = (PlatformEngine.carrierReportsPath.match(path) ?? PlatformEngine.carrierInboundPath.match(path))?["token"],
                  try await engine.acceptsCarrierReportToken(token) else { throw APIError.unauthorized }
            return .carrier
        }
        switch request.headers[.authorization].flatMap(Credential.init(headerValue:)) {
        case .app(let presented)?:
            if let holder = try await engine.holder(ofServerKey: presented) { return .key(holder) }
            // Neither a key nor this server's application code is a guess like any other: counted, on inbox routes too.
            guard access == .inbox || access == .inboxWrite, try await engine.isApplicationCode(presented) else {
                throw APIError.unauthorized
            }
            guard options.inboxAuth == .appCode else {
                throw APIError.forbidden("""
                    this server opens an inbox with a user's JWT or a server key, not the application code \
                    (the operator may allow it with --inbox-auth app-code)
                    """)
            }
            return .applicationCode
        case .bearer(let token)?:
            guard access == .inbox, let user = FetchInbox.path.match(path)?["externalUserId"],
                  try await engine.inboxTokenHolds(token, externalUserId: user) else { throw APIError.unauthorized }
            return .userToken
        case nil:
            throw APIError.unauthorized
        }
    }
}

/// The role a route group needs, checked once its caller is known; a refusal says why in the error envelope.
struct RoutePolicy {
    let grant: Caller.Grant
    let refusal: String

    /// What a route of `access` needs beyond an admitted caller; nil when any admitted caller may use it.
    static func of(_ access: RouteAccess, metricsRole: KeyRole?) -> RoutePolicy? {
        switch access {
        case .send: RoutePolicy(grant: .send, refusal: "a viewer key reads and watches; it cannot send, resend or change messages")
        case .inboxWrite: RoutePolicy(grant: .send, refusal: "a viewer key reads the inbox; marking messages seen needs a sender key")
        case .admin: RoutePolicy(grant: .admin, refusal: "only an admin key changes the application's settings")
        case .metrics where metricsRole == .admin: RoutePolicy(grant: .admin, refusal: "/metrics needs an admin key")
        case .metrics where metricsRole == .sender: RoutePolicy(grant: .send, refusal: "/metrics needs a sender key")
        default: nil
        }
    }

    /// hummingbird-auth's middleware for this policy.
    var middleware: AuthorizationPolicyMiddleware<RolePolicy<Caller>, ServerContext, WireRefusal> {
        AuthorizationPolicyMiddleware(RolePolicy(grant), deniedError: WireRefusal(.forbidden(refusal)))
    }
}
