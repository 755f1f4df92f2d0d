import Foundation
import HTTPTypes
import HeraldAPI
import Hummingbird

/// A Hummingbird request as the engine's wire request: method (HEAD answered as GET), path, query and headers from the
/// head; the body, when the method has one, read only after the caller was admitted, within the size limit and the
/// body timeout.
enum WireRequest {
    static func head(of request: Request) throws -> APIRequest {
        let method = request.method == .head ? HTTPMethod.get : HTTPMethod(rawValue: request.method.rawValue)
        guard let method else { throw APIError.server(status: 405, text: "\(request.method.rawValue) is not allowed on \(request.uri.path)") }
        return APIRequest(method: method, path: request.uri.path, query: query(request.uri.query), headers: headers(request.headers))
    }

    static func full(of request: Request, context: ServerContext, options: ServerOptions) async throws -> APIRequest {
        var wire = try head(of: request)
        if wire.method == .post || wire.method == .put { wire.body = try await body(of: request, context: context, options: options) }
        return wire
    }

    /// The body of an admitted request, within the size limit and the body timeout.
    static func body(of request: Request, context: ServerContext, options: ServerOptions) async throws -> Data {
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
        context.exchange.bodyRead = true
        return Data(buffer.readableBytesView)
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
}

/// Answers as the wire writes them: the engine's `APIResponse`, or a typed value as JSON in HeraldJSON's encoding.
enum WireAnswer {
    static func json(_ value: some Encodable) throws -> Response { response(try APIResponse.json(value)) }

    static func response(_ answer: APIResponse) -> Response {
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        return Response(status: .init(code: answer.status), headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}

/// The event queue's query (`after`, `limit`), range-checked.
struct EventQueueQuery {
    var after: Int64?
    var limit: Int

    init(_ query: [String: String]) throws {
        var input = WireInput()
        let limit = input.integer("limit", query["limit"], in: 1...1000) ?? 500
        try input.check("invalid event query")
        self.limit = Int(limit)
        after = try Self.eventId(query["after"])
    }

    /// An event id as a client sends it (`Last-Event-ID`, `after`): a whole number from 0, or nothing.
    static func eventId(_ text: String?) throws -> Int64? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard text.utf8.count <= 20, let id = Int64(text), id >= 0 else {
            throw APIError.badRequest("an event id is a whole number, got \"\(text.unicodeScalars.filter { !WireInput.isControl($0) }.prefix(40))\"",
                                      validationErrors: ["Last-Event-ID": ["must be a whole number from 0 to \(Int64.max)"]])
        }
        return id
    }
}
