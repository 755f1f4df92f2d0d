import Foundation
import HTTPTypes
import HeraldAPI
import HeraldEngine
import Hummingbird
import Logging

/// Answers every request of a Herald server: its own routes (health, features, metrics, session, events), and
/// the wire routes, which go to the engine once the key has been checked against the route's access rule and
/// exchanged for the application's own credential. Every failure is the error envelope, never internals.
struct ServerResponder: Sendable {
    let engine: PlatformEngine
    let options: ServerOptions
    let metrics: ServerMetrics
    let log = Logger(label: "herald.server")

    func respond(_ request: Request) async -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let path = request.uri.path
        let method = HTTPMethod(rawValue: request.method.rawValue)
        let route = ServerRoutes.match(method: method, path: path)
        var request = request
        let answer: Response
        do {
            answer = try await handle(&request, method: method, path: path, route: route)
        } catch let error as APIError {
            answer = Self.response(error.response)
        } catch let error as HTTPResponseError where error.status == .contentTooLarge {
            answer = Self.response(APIError.server(status: 413, text: "the body is larger than \(options.maxBodyBytes) bytes").response)
        } catch let error as EngineStoreError where !error.isRefusal {
            // The database is busy or cannot be reached (a key lookup, the event queue): try again shortly.
            log.warning("storage not answering", metadata: ["cause": "\(error)"])
            answer = Self.response(PlatformEngine.storageBusy)
        } catch {
            log.error("request failed", metadata: ["path": "\(route?.template.description ?? "unknown")",
                                                   "cause": "\(PlatformEngine.failureText(error))"])
            answer = Self.response(APIError.server(status: 500, text: "internal error").response)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        metrics.record(route: route?.template.description ?? "unmatched", status: Int(answer.status.code), seconds: seconds)
        return answer
    }

    private func handle(_ request: inout Request, method: HTTPMethod?, path: String,
                        route: (access: RouteAccess, template: PathTemplate)?) async throws -> Response {
        guard let method, let route else {
            if ServerRoutes.pathExists(path) {
                throw APIError.server(status: 405, text: "\(request.method.rawValue) is not allowed on \(path)")
            }
            throw APIError.notFound("no endpoint \(request.method.rawValue) \(path)")
        }
        var wire = APIRequest(method: method, path: path, query: Self.query(request.uri.query), headers: Self.headers(request.headers))
        if let length = request.headers[.contentLength].flatMap(Int.init), length > options.maxBodyBytes {
            throw APIError.server(status: 413, text: "the body is larger than \(options.maxBodyBytes) bytes")
        }
        if method == .post || method == .put {
            let buffer = try await request.collectBody(upTo: options.maxBodyBytes)
            wire.body = Data(buffer.readableBytesView)
        }
        switch route.access {
        case .open:
            return try await open(route.template, wire)
        case .server:
            let holder = try await authenticate(wire)
            return try await serve(route.template, wire, holder: holder)
        case .inbox:
            if case .app(let presented)? = wire.credential, let holder = try await engine.holder(ofServerKey: presented) {
                wire.headers["Authorization"] = Credential.app(holder.application.applicationCode).headerValue
            }
            return Self.response(await engine.handle(wire))
        case .read, .send, .admin:
            let holder = try await authenticate(wire)
            if route.access == .send, !holder.key.role.maySend {
                throw APIError.forbidden("a viewer key reads and watches; it cannot send, resend or change messages")
            }
            if route.access == .admin, holder.key.role != .admin {
                throw APIError.forbidden("only an admin key changes the application's settings")
            }
            wire.headers["Authorization"] = Credential.app(holder.application.secret).headerValue
            return Self.response(await engine.handle(wire))
        }
    }

    /// The live server key of a request, or 401.
    private func authenticate(_ request: APIRequest) async throws -> ServerKeyHolder {
        guard case .app(let presented)? = request.credential, let holder = try await engine.holder(ofServerKey: presented) else {
            throw APIError.unauthorized
        }
        return holder
    }

    private func open(_ template: PathTemplate, _ request: APIRequest) async throws -> Response {
        switch template {
        case ServerRoutes.health:
            do { try await engine.checkHealth() } catch {
                log.error("health check failed", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                var busy = APIError.server(status: 503, text: "the database does not answer").response
                busy.headers["Retry-After"] = "1"
                return Self.response(busy)
            }
            return Self.response(try APIResponse.json(["status": "ok"]))
        case ServerRoutes.metrics:
            let queue: Int?
            do { queue = try await engine.carrierQueue() } catch {
                log.error("metrics: could not read the carrier queue", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                queue = nil
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render(carrierQueue: queue))))
        case GetServerFeatures.path:
            return Self.response(try APIResponse.json(ServerFeatures(features: [
                "messaging": options.messagingVersion, "invitations": 1, "inbox": 1, "keys": 1,
            ])))
        default:
            return Self.response(await engine.handle(request))
        }
    }

    private func serve(_ template: PathTemplate, _ request: APIRequest, holder: ServerKeyHolder) async throws -> Response {
        let app = holder.application.applicationKey
        switch template {
        case GetServerSession.path:
            return Self.response(try APIResponse.json(ServerSession(applicationKey: app, role: holder.key.role,
                                                                    name: holder.key.name, keyId: holder.key.id)))
        case ServerRoutes.events:
            let lastId = try Self.eventId(request.header("Last-Event-ID") ?? request.query["lastEventId"])
            let stream = EventStream(engine: engine, applicationKey: app, options: options, metrics: metrics, log: log)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: try await stream.body(after: lastId))
        default:
            return Self.response(try await queue(request, applicationKey: app))
        }
    }

    /// `/1/messaging/messages?after=N`: the short-poll fallback, the same events as the stream.
    private func queue(_ request: APIRequest, applicationKey: String) async throws -> APIResponse {
        let limit = min(max(Int(request.query["limit"] ?? "") ?? 500, 1), 1000)
        let after = try Self.eventId(request.query["after"])
        let (newest, oldest) = try await engine.eventRange(applicationKey: applicationKey)
        guard let after else {
            return try APIResponse.json(EventQueueResponse(messages: [], lastEventId: newest, reset: true))
        }
        if let oldest, after < oldest - 1 {
            return try APIResponse.json(EventQueueResponse(messages: [], lastEventId: newest, reset: true))
        }
        let stored = try await engine.events(applicationKey: applicationKey, after: after, limit: limit)
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
        guard let id = Int64(text), id >= 0 else {
            throw APIError.badRequest("an event id is a whole number, got \"\(text.prefix(40))\"",
                                      validationErrors: ["Last-Event-ID": ["must be a whole number"]])
        }
        return id
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
