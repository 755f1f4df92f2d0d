import HeraldAPI

/// One admitted call of a typed engine route (model: hummingbird-examples' `TodoController`, whose handlers get typed
/// requests): the application the route's access rule authenticated, the path's parameters by name and the body
/// decoded as the endpoint's `Body`. A handler reads these and answers the endpoint's `Response`; the adapter
/// (`EngineRoute.init(_:_:status:whenNoBody:_:)`) did the rest once.
struct EngineCall<E: Endpoint>: Sendable {
    /// The request as it came (its query, its caller on a server, its path for a `resourceURL`).
    let request: APIRequest
    /// The path's `{name}` parameters, decoded: `call.path.bulkId`.
    let path: PathParameters
    /// The application the caller proved to be (its secret, its code or a user's JWT, as the route's access says).
    let app: ApplicationRecord
    /// The body, decoded; `EmptyBody()` for an endpoint that sends none.
    let body: E.Body
}

/// The decoded `{name}` parameters of a matched path, read by name (`path.bulkId`). A template's parameter is never
/// empty in a matched path, so a name the template has always reads its value.
@dynamicMemberLookup
struct PathParameters: Sendable {
    let values: [String: String]

    subscript(dynamicMember name: String) -> String { values[name] ?? "" }
}

extension EngineRoute {
    /// A route that answers endpoint `E`: the request is admitted by `access` (the application secret, which must
    /// be the path's `{applicationKey}` when it names one; the application code or a user's JWT on inbox routes) and
    /// by `allows` (a rule of the application's that refuses before the body is read: editing off), its body is
    /// decoded as `E.Body` (`whenNoBody` stands in for a missing one where the body is optional; else a missing body
    /// is a 400), then the handler runs and its answer is encoded once with `status` (an `EmptyResponse` as an
    /// empty body).
    init<E: Endpoint>(_ endpoint: E.Type, _ access: RouteAccess, status: Int = 200, whenNoBody: E.Body? = nil,
                      allows: (@Sendable (ApplicationRecord) throws -> Void)? = nil,
                      _ handler: @escaping @Sendable (PlatformEngine, EngineCall<E>) async throws -> E.Response)
    where E.Body: Decodable, E.Response: Encodable {
        precondition(access.isEngineAuthenticated, "\(E.self): a typed route names an access rule the engine authenticates")
        self.init(E.method, E.path, access) { engine, request, parameters in
            // A caller who sees numbers masked gets them masked here, in every answer and error of every typed route.
            let masks = request.caller?.masksNumbers == true
            do {
                let app = try await engine.admit(request, access: access, parameters: parameters)
                try allows?(app)
                let body = try engine.body(of: request, as: E.Body.self, whenNoBody: whenNoBody)
                let answer = try await handler(engine, EngineCall(request: request, path: PathParameters(values: parameters), app: app, body: body))
                if E.Response.self == EmptyResponse.self { return .empty(status: status) }
                return try .json(masks ? NumberMaskingSupport.masked(answer) : answer, status: status)
            } catch let error as APIError where masks {
                throw error.maskingNumbers()
            } catch let error as EngineError where masks {
                throw APIError.badRequest(error.description, validationErrors: [:]).maskingNumbers()
            }
        }
    }
}

extension RouteAccess {
    /// Whether the engine itself checks the caller of a route with this rule (the others are open or a server's own).
    var isEngineAuthenticated: Bool {
        switch self {
        case .read, .send, .admin, .referral, .inbox, .inboxWrite: true
        case .open, .server, .metrics, .carrierReports: false
        }
    }
}

extension PlatformEngine {
    /// The application a request of `access` may act for: 401 otherwise (ACCESS_TOKEN_MISSING for an application
    /// code where the application wants a JWT).
    nonisolated func admit(_ request: APIRequest, access: RouteAccess, parameters: [String: String]) async throws -> ApplicationRecord {
        switch access {
        case .inbox:
            return try await authenticateInbox(request, externalUserId: parameters["externalUserId"] ?? "")
        case .inboxWrite:
            return try await authenticateCode(request)
        case .read, .send, .admin, .referral:
            let app = try await authenticateSecret(request)
            if let named = parameters["applicationKey"], named != app.key { throw APIError.unauthorized }
            return app
        case .open, .server, .metrics, .carrierReports:
            throw APIError.unauthorized
        }
    }

    /// The body of `request` as `Body`: `EmptyBody()` for an endpoint without one, `whenNoBody` for a missing
    /// optional one, else decoded (400 when missing or not valid).
    nonisolated func body<Body: Decodable>(of request: APIRequest, as type: Body.Type, whenNoBody: Body?) throws -> Body {
        if let empty = EmptyBody() as? Body { return empty }
        if let whenNoBody, request.body?.isEmpty ?? true { return whenNoBody }
        return try decodeBody(request, as: Body.self)
    }
}
