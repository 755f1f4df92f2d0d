import Foundation
import HTTPTypes
import HeraldAPI
import HeraldEngine
import Hummingbird
import Logging

/// Answers every request of a Herald server: its own routes (health, features, metrics, session, events), and
/// the wire routes, which go to the engine once the key has been checked against the route's access rule and
/// exchanged for the application's own credential. Every failure is the error envelope, never internals.
///
/// A request is hostile until its key is checked: the route and the key are judged from the head alone, and a
/// body is read only after that, within the route's size limit and the body timeout. A client address that keeps
/// failing authentication is answered 429 without a look at the database.
struct ServerResponder: Sendable {
    let engine: PlatformEngine
    let options: ServerOptions
    let metrics: ServerMetrics
    let revocations: KeyRevocations
    let clicks: ClickCounter
    let events: EventCache
    let authFailures: AddressThrottle
    let clickThrottle: AddressThrottle
    let log = Logger(label: "herald.server")

    static let requestIdField = HTTPField.Name("X-Request-Id")!

    init(engine: PlatformEngine, options: ServerOptions, metrics: ServerMetrics, revocations: KeyRevocations, clicks: ClickCounter) {
        self.engine = engine
        self.options = options
        self.metrics = metrics
        self.revocations = revocations
        self.clicks = clicks
        events = EventCache(engine: engine, maxAge: options.eventPoll)
        authFailures = AddressThrottle(limit: options.authFailuresPerMinute, window: 60)
        clickThrottle = AddressThrottle(limit: options.clicksPerMinute, window: 60)
    }

    /// What one request has been found to be, filled in as it is handled (for the access log).
    struct Exchange {
        let context: ServerContext
        var route: (access: RouteAccess, template: PathTemplate)?
        var keyName: String?
        var bodyRead = false
    }

    func respond(_ request: Request, context: ServerContext) async -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let requestId = Self.requestId(request.headers[Self.requestIdField])
        let isHead = request.method == .head
        let method = isHead ? HTTPMethod.get : HTTPMethod(rawValue: request.method.rawValue)
        var exchange = Exchange(context: context, route: ServerRoutes.match(method: method, path: request.uri.path))
        var request = request
        var answer: Response
        do {
            answer = try await handle(&request, method: method, exchange: &exchange)
        } catch let error as APIError {
            answer = Self.response(error.response)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            answer = Self.response(APIError.server(status: 413, text: "the body is larger than \(options.maxBodyBytes) bytes").response)
        } catch let error as EngineStoreError where !error.isRefusal {
            // The database is busy or cannot be reached (a key lookup, the event queue): try again shortly.
            log.warning("storage not answering", metadata: ["cause": "\(error)", "request_id": "\(requestId)"])
            answer = Self.response(PlatformEngine.storageBusy)
        } catch {
            log.error("request failed", metadata: ["path": "\(exchange.route?.template.description ?? "unknown")",
                                                   "cause": "\(PlatformEngine.failureText(error))", "request_id": "\(requestId)"])
            answer = Self.response(APIError.server(status: 500, text: "internal error").response)
        }
        // A body the client sent but nobody read is not drained: the connection ends after the answer.
        if !exchange.bodyRead, Self.hasBody(request), answer.status.code >= 400 { answer.headers[.connection] = "close" }
        if isHead { answer.body = ResponseBody() }
        answer.headers[Self.requestIdField] = requestId
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let route = exchange.route?.template.description ?? "unmatched"
        metrics.record(route: route, status: Int(answer.status.code), seconds: seconds)
        var line: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(answer.status.code)",
            "duration_ms": "\(String(format: "%.2f", seconds * 1000))", "request_id": "\(requestId)",
            "client": "\(context.clientAddress)",
        ]
        if let key = exchange.keyName { line["key"] = "\(key)" }
        log.info("request", metadata: line)
        return answer
    }

    private func handle(_ request: inout Request, method: HTTPMethod?, exchange: inout Exchange) async throws -> Response {
        let path = request.uri.path
        guard let method, let route = exchange.route else {
            if ServerRoutes.pathExists(path) {
                throw APIError.server(status: 405, text: "\(request.method.rawValue) is not allowed on \(path)")
            }
            throw APIError.notFound("no endpoint \(request.method.rawValue) \(path)")
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > options.maxBodyBytes {
            throw APIError.server(status: 413, text: "the body is larger than \(options.maxBodyBytes) bytes")
        }
        var wire = APIRequest(method: method, path: path, query: Self.query(request.uri.query), headers: Self.headers(request.headers))
        // The key, from the head alone; no body has been read.
        let who = try await admit(route.access, wire, client: exchange.context.clientAddress)
        if case .key(let holder) = who { exchange.keyName = holder.key.name }
        if method == .post || method == .put {
            wire.body = try await readBody(&request)
            exchange.bodyRead = true
        }
        switch (route.access, who) {
        case (.open, _):
            return try await open(route.template, wire, exchange.context)
        case (.metrics, _):
            return try await metricsPage()
        case (.carrierReports, .carrier):
            return try await carrierReports(wire)
        case (.server, .key(let holder)):
            return try await serve(route.template, wire, holder: holder, context: exchange.context)
        case (.inbox, .key(let holder)), (.inboxWrite, .key(let holder)):
            wire.headers["Authorization"] = Credential.app(holder.application.applicationCode).headerValue
            return Self.response(await engine.handle(wire))
        case (.inbox, _), (.inboxWrite, _):
            return Self.response(await engine.handle(wire))     // a user's JWT, or the code where allowed: the engine checks it
        case (.referral, .key(let holder)) where !holder.key.role.maySend:
            return try await referralForViewer(wire, holder: holder)
        case (_, .key(let holder)):
            wire.headers["Authorization"] = Credential.app(holder.application.secret).headerValue
            return Self.response(await engine.handle(wire))
        default:
            throw APIError.unauthorized
        }
    }

    /// Who is asking, judged from the headers before any body is read; throws 401, 403 or 429.
    enum Caller { case anonymous, key(ServerKeyHolder), userToken, applicationCode, carrier }

    private func admit(_ access: RouteAccess, _ wire: APIRequest, client: String) async throws -> Caller {
        if access == .open || (access == .metrics && options.metricsRole == nil) { return .anonymous }
        if let wait = authFailures.retryAfter(client) { throw APIError.tooManyRequests(retryAfter: wait) }
        do {
            return try await authorize(access, wire)
        } catch APIError.unauthorized {
            if let wait = authFailures.count(client) {
                log.notice("client locked out after failed authentications", metadata: ["client": "\(client)"])
                throw APIError.tooManyRequests(retryAfter: wait)
            }
            if access == .carrierReports { throw APIError.notFound("no endpoint POST \(wire.path)") }
            throw APIError.unauthorized
        }
    }

    private func authorize(_ access: RouteAccess, _ wire: APIRequest) async throws -> Caller {
        if access == .carrierReports {
            // The token is the key: a wrong one is answered as a path that does not exist, and counts as a failure.
            guard let token = PlatformEngine.carrierReportsPath.match(wire.path)?["token"],
                  try await engine.acceptsCarrierReportToken(token) else { throw APIError.unauthorized }
            return .carrier
        }
        switch wire.credential {
        case .app(let presented)?:
            if let holder = try await engine.holder(ofServerKey: presented) {
                try Self.permit(access, role: holder.key.role, minimum: options.metricsRole)
                return .key(holder)
            }
            guard access == .inbox || access == .inboxWrite else { throw APIError.unauthorized }
            guard options.inboxAuth == .appCode else {
                throw APIError.forbidden("""
                    this server opens an inbox with a user's JWT or a server key, not the application code \
                    (the operator may allow it with --inbox-auth app-code)
                    """)
            }
            return .applicationCode
        case .bearer(let token)?:
            guard access == .inbox, let user = FetchInbox.path.match(wire.path)?["externalUserId"],
                  try await engine.inboxTokenHolds(token, externalUserId: user) else { throw APIError.unauthorized }
            return .userToken
        case nil:
            throw APIError.unauthorized
        }
    }

    /// Whether a key of `role` may use a route of `access`; throws 403 saying why not.
    static func permit(_ access: RouteAccess, role: KeyRole, minimum metricsRole: KeyRole?) throws {
        switch access {
        case .send where !role.maySend:
            throw APIError.forbidden("a viewer key reads and watches; it cannot send, resend or change messages")
        case .inboxWrite where !role.maySend:
            throw APIError.forbidden("a viewer key reads the inbox; marking messages seen needs a sender key")
        case .admin where role != .admin:
            throw APIError.forbidden("only an admin key changes the application's settings")
        case .metrics where metricsRole == .admin && role != .admin, .metrics where metricsRole == .sender && !role.maySend:
            throw APIError.forbidden("/metrics needs a \(metricsRole?.rawValue ?? "") key")
        default:
            return
        }
    }

    /// The body of an admitted request, within the size limit and the body timeout.
    private func readBody(_ request: inout Request) async throws -> Data {
        let limit = options.maxBodyBytes, timeout = options.bodyTimeout
        let body = request.body
        let buffer = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw APIError.server(status: 408, text: "the body did not arrive within \(Int(timeout)) s")
            }
            return buffer
        }
        return Data(buffer.readableBytesView)
    }

    private func open(_ template: PathTemplate, _ request: APIRequest, _ context: ServerContext) async throws -> Response {
        switch template {
        case ServerRoutes.health, ServerRoutes.ready:
            do { try await engine.checkHealth() } catch {
                log.error("health check failed", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                var busy = APIError.server(status: 503, text: "the database does not answer").response
                busy.headers["Retry-After"] = "1"
                return Self.response(busy)
            }
            return Self.response(try APIResponse.json(["status": "ok"]))
        case ServerRoutes.live:
            return Self.response(try APIResponse.json(["status": "ok"]))
        case GetServerFeatures.path:
            return Self.response(try APIResponse.json(ServerFeatures(features: [
                "messaging": options.messagingVersion, "invitations": 1, "inbox": 1, "keys": 1,
            ])))
        case PlatformEngine.clickPath:
            if let wait = clickThrottle.count(context.clientAddress) { throw APIError.tooManyRequests(retryAfter: wait) }
            guard let code = PlatformEngine.clickPath.match(request.path)?["code"], try await clicks.click(code) else {
                throw APIError.notFound("Link not found")
            }
            return Self.response(APIResponse(status: 302, headers: ["Location": engine.config.downloadURL]))
        default:
            return Self.response(await engine.handle(request))
        }
    }

    private func metricsPage() async throws -> Response {
        let queue: Int?
        do { queue = try await engine.carrierQueue() } catch {
            log.error("metrics: could not read the carrier queue", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
            queue = nil
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render(carrierQueue: queue))))
    }

    /// The carrier's reports, stored before the answer: a 2xx tells the carrier it may forget them, anything else has
    /// it call again (a report stored twice counts once).
    private func carrierReports(_ request: APIRequest) async throws -> Response {
        let changed: Int
        do { changed = try await engine.storePushedReports(request.body ?? Data()) } catch let error as CarrierReportsError {
            switch error {
            case .notPushed: throw APIError.notFound("no endpoint POST \(request.path)")
            case .unreadable: throw APIError.badRequest(error.description, validationErrors: ["results": [error.description]])
            }
        }
        metrics.recordCarrierReports(changed)
        return Self.response(APIResponse(status: 204))
    }

    /// A viewer's referral read: a link made already, never a new one.
    private func referralForViewer(_ request: APIRequest, holder: ServerKeyHolder) async throws -> Response {
        if request.query["messageId"].map({ !$0.isEmpty }) != true, let referrer = request.query["referrer"] {
            try PlatformEngine.checkValues(request)
            guard let link = try await engine.existingReferralLink(applicationKey: holder.application.applicationKey, referrer: referrer) else {
                throw APIError.forbidden("a viewer key reads referral links; making one needs a sender key")
            }
            return Self.response(try APIResponse.json(link))
        }
        var wire = request
        wire.headers["Authorization"] = Credential.app(holder.application.secret).headerValue
        return Self.response(await engine.handle(wire))
    }

    private func serve(_ template: PathTemplate, _ request: APIRequest, holder: ServerKeyHolder, context: ServerContext) async throws -> Response {
        let app = holder.application.applicationKey
        switch template {
        case GetServerSession.path:
            return Self.response(try APIResponse.json(ServerSession(applicationKey: app, role: holder.key.role,
                                                                    name: holder.key.name, keyId: holder.key.id,
                                                                    linkExample: engine.config.linkExample)))
        case ServerRoutes.events:
            let lastId = try Self.eventId(request.header("Last-Event-ID") ?? request.query["lastEventId"])
            let stream = EventStream(engine: engine, applicationKey: app, keyId: holder.key.id, options: options, metrics: metrics,
                                     revocations: revocations, cache: events, log: log)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            headers[.connection] = "close"      // a stream that ends (revoked key, server stopping) ends its connection
            return Response(status: .ok, headers: headers, body: try await stream.body(after: lastId, closing: context.channel.closeFuture))
        default:
            return Self.response(try await queue(request, applicationKey: app))
        }
    }

    /// `/1/messaging/messages?after=N`: the short-poll fallback, the same events as the stream.
    private func queue(_ request: APIRequest, applicationKey: String) async throws -> APIResponse {
        var input = WireInput()
        let limit = input.integer("limit", request.query["limit"], in: 1...1000) ?? 500
        try input.check("invalid event query")
        let after = try Self.eventId(request.query["after"])
        let (newest, oldest) = try await engine.eventRange(applicationKey: applicationKey)
        guard let after else {
            return try APIResponse.json(EventQueueResponse(messages: [], lastEventId: newest, reset: true))
        }
        if let oldest, after < oldest - 1 {
            return try APIResponse.json(EventQueueResponse(messages: [], lastEventId: newest, reset: true))
        }
        let stored = try await engine.events(applicationKey: applicationKey, after: after, limit: Int(limit))
        let messages = stored.compactMap { event -> EventQueueResponse.QueuedEvent? in
            do { return EventQueueResponse.QueuedEvent(id: event.id, event: try HeraldJSON.decode(PlatformEvent.self, from: event.payload)) } catch {
                log.error("a stored event cannot be read; skipped", metadata: ["id": "\(event.id)", "cause": "\(error)"])
                return nil
            }
        }
        return try APIResponse.json(EventQueueResponse(messages: messages, lastEventId: stored.last?.id ?? after, reset: false))
    }

    static func eventId(_ text: String?) throws -> Int64? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard text.utf8.count <= 20, let id = Int64(text), id >= 0 else {
            throw APIError.badRequest("an event id is a whole number, got \"\(text.unicodeScalars.filter { !WireInput.isControl($0) }.prefix(40))\"",
                                      validationErrors: ["Last-Event-ID": ["must be a whole number from 0 to \(Int64.max)"]])
        }
        return id
    }

    /// The client's request id when it is a sane one (1 to 128 visible ASCII characters), else a new one.
    static func requestId(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count), given.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return given }
        return UUID().uuidString.lowercased()
    }

    static func hasBody(_ request: Request) -> Bool {
        if let length = request.headers[.contentLength] { return length != "0" }
        return request.headers[.transferEncoding] != nil
    }

    static func query(_ query: String?) -> [String: String] {
        guard let query, let items = URLComponents(string: "http://h/?" + query)?.queryItems else { return [:] }
        var out: [String: String] = [:]
        for item in items where out[item.name] == nil { out[item.name] = item.value ?? "" }
        return out
    }

    static func headers(_ fields: HTTPFields) -> [String: String] {
        var out: [String: String] = [:]
        for field in fields where out[field.name.canonicalName] == nil { out[field.name.canonicalName] = field.value }
        return out
    }

    static func response(_ answer: APIResponse) -> Response {
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        return Response(status: .init(code: answer.status), headers: headers,
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
