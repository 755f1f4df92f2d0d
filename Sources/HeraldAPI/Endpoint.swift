import Foundation

/// A typed wire endpoint: knows its method, path template, query, credential, body and response type.
///
/// Build the request with `request()`, hand it to a transport (the embedded engine or HTTP),
/// then turn the answer into the typed response (or a typed `APIError`) with `decode(_:)`.
public protocol Endpoint: Sendable {
    associatedtype Body: Encodable & Sendable
    associatedtype Response: Decodable & Sendable

    static var method: HTTPMethod { get }
    static var path: PathTemplate { get }
    /// Values of the template's `{name}` parameters, not encoded.
    var pathParameters: [String: String] { get }
    var query: [String: String] { get }
    var credential: Credential { get }
    /// The JSON body; nil for none.
    var body: Body? { get }
}

extension Endpoint {
    public var pathParameters: [String: String] { [:] }
    public var query: [String: String] { [:] }

    /// The wire request for this endpoint.
    public func request() throws(APIError) -> APIRequest {
        var headers = ["Authorization": credential.headerValue, "Accept": "application/json"]
        var data: Data?
        if let body {
            do { data = try HeraldJSON.encode(body) } catch {
                throw APIError.invalidRequest("cannot encode the body: \(error)")
            }
            headers["Content-Type"] = "application/json"
        }
        return APIRequest(method: Self.method, path: try Self.path.path(pathParameters), query: query,
                          headers: headers, body: data)
    }

    /// The typed response of a 2xx answer, or the `APIError` the answer stands for.
    public func decode(_ response: APIResponse) throws(APIError) -> Response {
        guard response.isSuccess else { throw APIError(response: response) }
        if Response.self == EmptyResponse.self, let empty = EmptyResponse() as? Response { return empty }
        do { return try HeraldJSON.decode(Response.self, from: response.body) } catch {
            throw APIError.invalidResponse("\(Self.method.rawValue) \(Self.path): \(error)")
        }
    }
}

/// The body of an endpoint that sends none.
public struct EmptyBody: Codable, Sendable, Hashable {
    public init() {}
}

/// The response of an endpoint that answers with an empty body (any body is ignored).
public struct EmptyResponse: Codable, Sendable, Hashable {
    public init() {}
}
