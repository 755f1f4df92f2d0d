import Foundation

/// HTTP methods the Herald wire protocol uses.
public enum HTTPMethod: String, Sendable, Hashable, Codable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case delete = "DELETE"
}

/// One request as it travels on the wire: method, percent-encoded path, query, headers and body.
/// The embedded engine consumes exactly this; an HTTP transport maps it one to one.
public struct APIRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The path, each segment percent-encoded ("/mobile/1/user/a%2Fb/inbox/apns/messages").
    public var path: String
    /// Query items, not encoded.
    public var query: [String: String]
    public var headers: [String: String]
    public var body: Data?
    /// The server key the request was authenticated with; nil on the embedded platform.
    public var caller: APICaller?

    public init(method: HTTPMethod, path: String, query: [String: String] = [:],
                headers: [String: String] = [:], body: Data? = nil, caller: APICaller? = nil) {
        self.caller = caller
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? { headers.value(caseInsensitive: name) }

    /// The credential of the `Authorization` header, nil when absent or not understood.
    public var credential: Credential? { header("Authorization").flatMap(Credential.init(headerValue:)) }

    /// The path split into decoded segments ("/a/b%20c" → ["a", "b c"]); nil when a segment is badly encoded.
    public var pathSegments: [String]? { PathTemplate.decodedSegments(of: path) }
}

/// One response as it travels on the wire.
public struct APIResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? { headers.value(caseInsensitive: name) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// A JSON response of an encodable value.
    public static func json<T: Encodable>(_ value: T, status: Int = 200) throws -> APIResponse {
        APIResponse(status: status, headers: ["Content-Type": "application/json"], body: try HeraldJSON.encode(value))
    }

    /// An empty successful answer.
    public static func empty(status: Int = 200) -> APIResponse { APIResponse(status: status) }
}

extension Dictionary where Key == String, Value == String {
    func value(caseInsensitive name: String) -> String? {
        if let exact = self[name] { return exact }
        let lowered = name.lowercased()
        return first { $0.key.lowercased() == lowered }?.value
    }
}

/// The JSON coding every Herald endpoint uses: sorted keys, no escaped slashes; times are epoch milliseconds
/// written as integers by the models themselves.
public enum HeraldJSON {
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }

    public static func encode<T: Encodable>(_ value: T) throws -> Data { try encoder().encode(value) }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder().decode(type, from: data)
    }
}
