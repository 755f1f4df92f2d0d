import Foundation
import HTTPTypes
import HeraldAPI
import HeraldEngine
import Hummingbird
import Logging

/// What answers each route once its group's middleware has admitted the caller: the server's own answers (health,
/// features, metrics, session, events, clicks, the carrier's reports) and the hand-over of wire routes to the engine
/// with the application's own credential in place of the server key.
struct ServerHandlers: Sendable {
    let engine: PlatformEngine
    let options: ServerOptions
    let metrics: ServerMetrics
    let revocations: KeyRevocations
    let clicks: ClickCounter
    let events: EventCache
    let streams: StreamSlots
    let clickThrottle: AddressThrottle
    let log = Logger(label: "herald.server")

    init(engine: PlatformEngine, options: ServerOptions, metrics: ServerMetrics, revocations: KeyRevocations, clicks: ClickCounter) {
        self.engine = engine
        self.options = options
        self.metrics = metrics
        self.revocations = revocations
        self.clicks = clicks
        events = EventCache(engine: engine, maxAge: options.eventPoll, maxBytes: options.eventCacheBytes)
        streams = StreamSlots(perKey: options.maxStreamsPerKey)
        clickThrottle = AddressThrottle(limit: options.clicksPerMinute, window: 60)
    }

    // MARK: - Open routes

    func health() async throws -> Response {
        do { try await engine.checkHealth() } catch {
            log.error("health check failed", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
            var busy = APIError.server(status: 503, text: "the database does not answer").response
            busy.headers["Retry-After"] = "1"
            return WireAnswer.response(busy)
        }
        return try WireAnswer.json(ServerHealth(ok: options.build))
    }

    func features() throws -> Response {
        try WireAnswer.json(ServerFeatures(features: ["messaging": options.messagingVersion, "invitations": 1, "inbox": 1, "keys": 1]))
    }

    /// A short link's landing: counted (throttled per client address) and redirected to the download page.
    func click(_ request: Request, _ context: ServerContext) async throws -> Response {
        if let wait = clickThrottle.count(context.clientAddress) { throw APIError.tooManyRequests(retryAfter: wait) }
        guard let code = PlatformEngine.clickPath.match(request.uri.path)?["code"], try await clicks.click(code) else { throw APIError.notFound("Link not found") }
        return WireAnswer.response(APIResponse(status: 302, headers: ["Location": engine.config.downloadURL]))
    }

    func metricsPage() async -> Response {
        let queue: Int?
        do { queue = try await engine.carrierQueue() } catch {
            log.error("metrics: could not read the carrier queue", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
            queue = nil
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; version=0.0.4"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render(carrierQueue: queue))))
    }

    // MARK: - A server key's own routes

    func session(_ context: ServerContext) throws -> Response {
        let holder = try context.keyHolder()
        return try WireAnswer.json(ServerSession(applicationKey: holder.application.applicationKey, role: holder.key.role,
                                                 name: holder.key.name, keyId: holder.key.id, linkExample: engine.config.linkExample,
                                                 version: options.build.version, wire: options.build.wire))
    }

    /// `/1/events`: server-sent events from `Last-Event-ID` on, until the key is revoked or the server stops.
    func events(_ request: Request, _ context: ServerContext) async throws -> Response {
        let holder = try context.keyHolder()
        let wire = try WireRequest.head(of: request)
        let lastId = try EventQueueQuery.eventId(wire.header("Last-Event-ID") ?? wire.query["lastEventId"])
        guard let slot = streams.take(holder.key.id) else { return WireAnswer.response(streams.refusal()) }
        let stream = EventStream(engine: engine, applicationKey: holder.application.applicationKey, keyId: holder.key.id, options: options,
                                 metrics: metrics, revocations: revocations, cache: events, slot: slot, log: log,
                                 masksNumbers: masksNumbers(for: holder))
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        headers[.connection] = "close"      // a stream that ends (revoked key, server stopping) ends its connection
        return Response(status: .ok, headers: headers, body: try await stream.body(after: lastId, closing: context.channel.closeFuture))
    }

    /// `/1/messaging/messages?after=N`: the short-poll fallback, the same events as the stream.
    func queue(_ request: Request, _ context: ServerContext) async throws -> Response {
        let applicationKey = try context.keyHolder().application.applicationKey
        let query = try EventQueueQuery(try WireRequest.head(of: request).query)
        let (newest, oldest) = try await engine.eventRange(applicationKey: applicationKey)
        guard let after = query.after, oldest.map({ after >= $0 - 1 }) ?? true else {
            return try WireAnswer.json(EventQueueResponse(messages: [], lastEventId: newest, reset: true))
        }
        let stored = try await engine.events(applicationKey: applicationKey, after: after, limit: query.limit)
        let masks = try masksNumbers(for: context.keyHolder())
        let messages = stored.compactMap { event -> EventQueueResponse.QueuedEvent? in
            do {
                let decoded = try HeraldJSON.decode(PlatformEvent.self, from: event.payload)
                return EventQueueResponse.QueuedEvent(id: event.id, event: masks ? decoded.maskingNumbers() : decoded)
            } catch {
                log.error("a stored event cannot be read; skipped", metadata: ["id": "\(event.id)", "cause": "\(error)"])
                return nil
            }
        }
        return try WireAnswer.json(EventQueueResponse(messages: messages, lastEventId: stored.last?.id ?? after, reset: false))
    }

    // MARK: - The carrier

    /// The carrier's reports, stored before the answer: a 2xx tells the carrier it may forget them, anything else has
    /// it call again (a report stored twice counts once).
    func carrierReports(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await WireRequest.body(of: request, context: context, options: options)
        let changed: Int
        do { changed = try await engine.storePushedReports(body) } catch let error as CarrierReportsError {
            switch error {
            case .notPushed: throw APIError.notFound("no endpoint POST \(request.uri.path)")
            case .unreadable: throw APIError.badRequest(error.description, validationErrors: ["results": [error.description]])
            }
        }
        metrics.recordCarrierReports(changed)
        return WireAnswer.response(APIResponse(status: 204))
    }

    /// SMS people sent back, pushed by the carrier: kept (each once, whichever replica or pull had it first) before the
    /// answer, so a 2xx tells the carrier it may forget them and anything else has it call again.
    func carrierInbound(_ request: Request, _ context: ServerContext) async throws -> Response {
        let body = try await WireRequest.body(of: request, context: context, options: options)
        do { _ = try await engine.storePushedReplies(body) } catch let error as CarrierReportsError {
            switch error {
            case .notPushed: throw APIError.notFound("no endpoint POST \(request.uri.path)")
            case .unreadable: throw APIError.badRequest(error.description, validationErrors: ["results": [error.description]])
            }
        }
        return WireAnswer.response(APIResponse(status: 204))
    }

    // MARK: - The engine's wire routes

    /// A wire route handed to the engine: a server key becomes the application's secret (its code on inbox routes);
    /// a user's JWT, or the application code where the operator allowed it, goes as it came, and the engine checks it.
    func forward(_ request: Request, _ context: ServerContext, to route: EngineRoute) async throws -> Response {
        var wire = try await WireRequest.full(of: request, context: context, options: options)
        let access = route.access
        if case .key(let holder) = context.identity {
            if access == .referral, !holder.key.role.maySend { return try await referralForViewer(wire, holder: holder, route: route) }
            let credential = access == .inbox || access == .inboxWrite ? holder.application.applicationCode : holder.application.secret
            wire.headers["Authorization"] = Credential.app(credential).headerValue
            wire.caller = APICaller(keyId: holder.key.id, name: holder.key.name, role: holder.key.role)
            wire.caller?.masksNumbers = masksNumbers(for: holder)
            wire.caller?.address = context.clientAddress
        }
        return WireAnswer.response(await engine.handle(wire, on: route))
    }

    /// A viewer's referral read: a link made already, never a new one.
    private func referralForViewer(_ request: APIRequest, holder: ServerKeyHolder, route: EngineRoute) async throws -> Response {
        if request.query["messageId"].map({ !$0.isEmpty }) != true, let referrer = request.query["referrer"] {
            try PlatformEngine.checkValues(request)
            guard let link = try await engine.existingReferralLink(applicationKey: holder.application.applicationKey, referrer: referrer) else {
                throw APIError.forbidden("a viewer key reads referral links; making one needs a sender key")
            }
            return try WireAnswer.json(masksNumbers(for: holder) ? link.maskingNumbers() : link)
        }
        var wire = request
        wire.headers["Authorization"] = Credential.app(holder.application.secret).headerValue
        wire.caller = APICaller(keyId: holder.key.id, name: holder.key.name, role: holder.key.role)
        wire.caller?.masksNumbers = masksNumbers(for: holder)
        return WireAnswer.response(await engine.handle(wire, on: route))
    }

    /// Whether `holder` sees numbers and addresses masked: a viewer key, when the operator asked for it.
    func masksNumbers(for holder: ServerKeyHolder) -> Bool {
        options.masksNumbers(for: holder.key.role)
    }
}

extension ServerContext {
    /// The server key the route's authenticator admitted; a route of a key group has one.
    func keyHolder() throws -> ServerKeyHolder {
        guard case .key(let holder) = identity else { throw APIError.unauthorized }
        return holder
    }
}
