import Foundation
import HeraldAPI
import HeraldCore
import Logging

/// The messaging platform, embedded: applications and messages, invitation sending through a simulated
/// carrier, delivery infos, short links and clicks, the inbox and its auth, on an `EngineStore` (its own SQLite
/// file, or PostgreSQL shared by replicas).
///
/// `handle(_:)` answers wire requests exactly as an HTTP server will (same paths, JSON and error
/// envelopes); the other public methods are admin operations for the executable and tests.
public actor PlatformEngine {
    public nonisolated let store: any EngineStore
    let clock: any HeraldClock
    public nonisolated let config: EngineConfig
    let carrier: any Carrier
    /// Where email invitations are handed; nil: this platform sends no email.
    let mailer: (any Mailer)?
    var faults = FaultQueue()
    /// The catch-up across bulks under way (reads that arrive meanwhile wait for it instead of asking the carrier again).
    var sharedCatchUp: Task<Void, any Error>?
    /// The report webhook's token, once read.
    var reportToken: String?
    /// When the carrier's received messages (replies) were last collected.
    var repliesCollectedAt = Date.distantPast
    /// Rings after every commit that stored events.
    public nonisolated let bell = EventBell()
    /// Emails each server key sent in the last hour (`EngineConfig.emailsPerKeyPerHour`).
    nonisolated let emailQuota = EmailQuota()
    let log = Logger(label: "herald.engine")

    init(store: any EngineStore, clock: any HeraldClock, config: EngineConfig, carrier: (any Carrier)? = nil,
         mailer: (any Mailer)? = nil) {
        self.mailer = mailer
        self.store = store
        self.clock = clock
        self.config = config
        self.carrier = carrier ?? SimulatedCarrier(config: config)
        for e in config.faults.entries {
            faults.entries.append(FaultQueue.Entry(fault: e.fault, remaining: e.count, pathPrefix: e.pathPrefix))
        }
    }

    /// Opens (creating when missing) the engine's database at `url`, e.g. `<data dir>/engine.sqlite`.
    /// `carrier` delivers the messages (nil: the simulated carrier of `config`); `mailer` the email invitations (nil: none).
    public static func open(at url: URL, clock: any HeraldClock = SystemClock(), config: EngineConfig = EngineConfig(),
                            carrier: (any Carrier)? = nil, mailer: (any Mailer)? = nil) throws -> PlatformEngine {
        let store: SQLiteEngineStore
        do { store = try SQLiteEngineStore(at: url) } catch {
            throw EngineError.storage("cannot open \(url.path): \(failureText(error))")
        }
        return try open(store: store, clock: clock, config: config, carrier: carrier, mailer: mailer)
    }

    /// The engine on a store opened by the caller (PostgreSQL, shared by replicas).
    public static func open(store: any EngineStore, clock: any HeraldClock = SystemClock(), config: EngineConfig = EngineConfig(),
                            carrier: (any Carrier)? = nil, mailer: (any Mailer)? = nil) throws -> PlatformEngine {
        try config.validate()
        return PlatformEngine(store: store, clock: clock, config: config, carrier: carrier, mailer: mailer)
    }

    // MARK: - Wire

    /// Answers one wire request. Never throws: every failure is an error-envelope response.
    public func handle(_ request: APIRequest) async -> APIResponse {
        await answering(request) { engine in try await engine.route(request) }
    }

    /// Answers a request a Herald server's router already matched to `route` (no second look through the routes).
    public func handle(_ request: APIRequest, on route: EngineRoute) async -> APIResponse {
        await answering(request) { engine in try await engine.answer(request, on: route) }
    }

    /// Runs `work` for `request` between the configured faults, every failure turned into its error envelope.
    private func answering(_ request: APIRequest, _ work: (isolated PlatformEngine) async throws -> APIResponse) async -> APIResponse {
        let fault = faults.next(for: request)
        if let fault, let early = fault.responseBeforeProcessing { return early }
        if case .delay(let seconds) = fault { try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
        let response: APIResponse
        let path = request.path
        do {
            response = try await work(self)
        } catch let error as APIError {
            response = error.response
        } catch let error as EngineError {
            response = APIError.badRequest(error.description, validationErrors: [:]).response
        } catch let error as EngineStoreError {
            if error.isRefusal {
                log.error("request failed in storage", metadata: ["path": "\(path)", "cause": "\(error)"])
                response = APIError.server(status: 500, text: "internal error").response
            } else {
                response = Self.storageBusy
            }
        } catch {
            // Never SQL text or internals on the wire.
            response = APIError.server(status: 500, text: "internal error").response
        }
        return fault?.responseAfterProcessing ?? response
    }

    /// The embedded platform's routing: the first route of the request's method whose path matches.
    func route(_ request: APIRequest) async throws -> APIResponse {
        try Self.checkValues(request)
        for route in Self.routes where route.method == request.method {
            if let parameters = route.path.match(request.path) { return try await route.answer(self, request, parameters) }
        }
        throw Self.noRoute(request)
    }

    /// A request answered by the route a server matched: its parameters read from that route's own template.
    func answer(_ request: APIRequest, on route: EngineRoute) async throws -> APIResponse {
        try Self.checkValues(request)
        guard let parameters = route.path.match(request.path) else { throw Self.noRoute(request) }
        return try await route.answer(self, request, parameters)
    }

    /// Why no route answers `request`: a badly encoded path (400), else none has it (404).
    static func noRoute(_ request: APIRequest) -> APIError {
        if PathTemplate.decodedSegments(of: request.path) == nil {
            return APIError.badRequest("badly encoded path \(request.path)", validationErrors: [:])
        }
        return APIError.notFound("no endpoint \(request.method.rawValue) \(request.path)")
    }

    static let maxPathSegment = 1024
    static let maxQueryValue = 4096

    /// Every path segment and query item of a request: no control characters (NUL, ESC, C0, C1) and a sane length,
    /// whatever route it goes to. Body fields are checked by each route as it decodes them.
    public nonisolated static func checkValues(_ request: APIRequest) throws {
        var input = WireInput()
        for segment in request.pathSegments ?? [] {
            if let problem = WireInput.identifierProblem(segment.isEmpty ? "-" : segment, maxLength: maxPathSegment) {
                input.refuse("path", problem)
            }
        }
        for (name, value) in request.query {
            if let problem = WireInput.identifierProblem(name, maxLength: 100) { input.refuse("query", problem) }
            if !value.isEmpty, let problem = WireInput.identifierProblem(value, maxLength: maxQueryValue) {
                input.refuse(String(name.unicodeScalars.filter { !WireInput.isControl($0) }.prefix(100)), problem)
            }
        }
        try input.check("invalid request")
    }

    /// Where a short link lands when served: `GET /r/{code}` counts the click and redirects to the download page.
    public static let clickPath: PathTemplate = "/r/{code}"

    func click(_ parameters: [String: String]) async throws -> APIResponse {
        guard let code = parameters["code"], let _ = try await recordClick(code: code) else {
            throw APIError.notFound("Link not found")
        }
        return APIResponse(status: 302, headers: ["Location": config.downloadURL])
    }

    // MARK: - Helpers for routes

    nonisolated var now: Date { clock.now() }
    nonisolated var nowMs: Int64 { clock.now().epochMilliseconds }

    nonisolated func decodeBody<T: Decodable>(_ request: APIRequest, as type: T.Type) throws -> T {
        guard let body = request.body, !body.isEmpty else {
            throw APIError.badRequest("the request has no JSON body", validationErrors: [:])
        }
        do { return try HeraldJSON.decode(T.self, from: body) } catch {
            throw APIError.badRequest("the JSON body is not valid: \(Self.describe(error))", validationErrors: [:])
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let ctx):
            return "missing field \((ctx.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let ctx), DecodingError.valueNotFound(_, let ctx):
            return "wrong type at \(ctx.codingPath.map(\.stringValue).joined(separator: ".")): \(ctx.debugDescription)"
        case DecodingError.dataCorrupted(let ctx):
            return ctx.debugDescription
        default:
            return "\(error)"
        }
    }

    /// Any failure of the engine's admin methods in plain words: an `EngineError`'s description, a storage
    /// error's code and message, never SQL text.
    public static func failureText(_ error: any Error) -> String {
        if let engine = error as? EngineError { return engine.description }
        if let storage = error as? EngineStoreError { return storage.description }
        return "\(error)"
    }

    /// The answer when the database is busy or out of reach: 503, try again in a second.
    public static var storageBusy: APIResponse {
        var busy = APIError.server(status: 503, text: "storage busy, try again").response
        busy.headers["Retry-After"] = "1"
        return busy
    }
}
