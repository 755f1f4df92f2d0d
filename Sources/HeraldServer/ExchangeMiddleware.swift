import Foundation
import HTTPTypes
import HeraldAPI
import HeraldEngine
import Hummingbird
import Logging

/// The outermost step of every request, matched or not: the request id, the size limit read from the head, the
/// error envelope for every failure (never internals), the access log line and the metrics. A body the client
/// sent but nobody read is not drained: the connection ends after a refusal.
struct ExchangeMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    let options: ServerOptions
    let metrics: ServerMetrics
    let log = Logger(label: "herald.server")

    static let requestIdField = HTTPField.Name("X-Request-Id")!

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let requestId = Self.requestId(request.headers[Self.requestIdField])
        let matched = context.endpointPath != nil
        var answer: Response
        do {
            if matched, let length = request.headers[.contentLength].flatMap(Int.init), length > options.maxBodyBytes {
                throw tooLarge
            }
            answer = try await next(request, context)
        } catch {
            answer = envelope(error, request: request, context: context, requestId: requestId)
        }
        if !context.exchange.bodyRead, Self.hasBody(request), answer.status.code >= 400 { answer.headers[.connection] = "close" }
        answer.headers[Self.requestIdField] = requestId
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        metrics.record(route: route, status: Int(answer.status.code), seconds: seconds)
        var line: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(answer.status.code)",
            "duration_ms": "\(String(format: "%.2f", seconds * 1000))", "request_id": "\(requestId)",
            "client": "\(context.clientAddress)",
        ]
        if let key = context.exchange.keyName { line["key"] = "\(key)" }
        log.info("request", metadata: line)
        return answer
    }

    /// A body over the limit, whether its `Content-Length` said so or its bytes did.
    private var tooLarge: APIError { APIError.server(status: 413, text: "the body is larger than \(options.maxBodyBytes) bytes") }

    /// Every failure as the error envelope a client of the wire API expects.
    private func envelope(_ error: any Error, request: Request, context: ServerContext, requestId: String) -> Response {
        switch error {
        case let error as APIError:
            return WireAnswer.response((context.exchange.masksNumbers ? error.maskingNumbers() : error).response)
        case let error as WireRefusal:
            return WireAnswer.response(error.error.response)
        case let error as HTTPResponseError where error.status == .notFound:
            return WireAnswer.response(APIError.notFound("no endpoint \(request.method.rawValue) \(request.uri.path)").response)
        case let error as HTTPResponseError where error.status == .contentTooLarge:
            return WireAnswer.response(tooLarge.response)
        case let error as EngineStoreError where !error.isRefusal:
            // The database is busy or cannot be reached (a key lookup, the event queue): try again shortly.
            log.warning("storage not answering", metadata: ["cause": "\(error)", "request_id": "\(requestId)"])
            return WireAnswer.response(PlatformEngine.storageBusy)
        default:
            log.error("request failed", metadata: ["path": "\(context.endpointPath ?? "unknown")",
                                                   "cause": "\(PlatformEngine.failureText(error))", "request_id": "\(requestId)"])
            return WireAnswer.response(APIError.server(status: 500, text: "internal error").response)
        }
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
}

/// A refusal thrown by hummingbird-auth's policy middleware, answered as the wire's error envelope.
struct WireRefusal: HTTPResponseError {
    let error: APIError

    init(_ error: APIError) { self.error = error }

    var status: HTTPResponse.Status { .init(code: error.response.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        WireAnswer.response(error.response)
    }
}
