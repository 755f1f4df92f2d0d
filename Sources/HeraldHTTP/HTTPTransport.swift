import AsyncHTTPClient
import Foundation
import HeraldAPI
import NIOCore
import NIOHTTP1

/// Carries wire requests to a Herald server over HTTP (async-http-client). Any answer is returned as it
/// came (error envelopes included); only getting no answer throws: `.timeout`, or `.transport` saying why.
public struct HTTPTransport: PlatformTransport {
    public let baseURL: URL
    public let timeout: TimeInterval
    /// The largest answer read; a bigger one is an error, not a memory hog.
    public let maxResponseBytes: Int
    let client: HTTPClient

    public init(baseURL: URL, timeout: TimeInterval = 15, maxResponseBytes: Int = 32 << 20, client: HTTPClient = .shared) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.client = client
    }

    /// A transport that trusts the CA certificates of `caFile` besides the system's (a server with its own CA).
    public init(baseURL: URL, caFile: String?, timeout: TimeInterval = 15) throws(APIError) {
        self.init(baseURL: baseURL, timeout: timeout, client: try ServerTrust.client(caFile: caFile))
    }

    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        try await send(request, queryItems: request.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Carries `request` with these query items instead of its own, in this order; a key may repeat
    /// (`bulkId=a&bulkId=b`), which a dictionary cannot say.
    public func send(_ request: APIRequest, queryItems: [(String, String)]) async throws(APIError) -> APIResponse {
        let url = Self.url(baseURL, path: request.path, query: queryItems)
        var http = HTTPClientRequest(url: url)
        http.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for (name, value) in request.headers { http.headers.add(name: name, value: value) }
        if let body = request.body { http.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(http, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await response.body.collect(upTo: maxResponseBytes)
            var headers: [String: String] = [:]
            for header in response.headers where headers[header.name] == nil { headers[header.name] = header.value }
            return APIResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            throw Self.apiError(error, url: url)
        }
    }

    /// The URL of a request: the base URL's own path, then the request's (already encoded) path and its query.
    static func url(_ base: URL, path: String, query: [(String, String)]) -> String {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+;#")
            text += "?" + query.map { key, value in
                (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key) + "="
                    + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
            }.joined(separator: "&")
        }
        return text
    }

    /// What a failure to get an answer means for people.
    static func apiError(_ error: any Error, url: String) -> APIError {
        if let client = error as? HTTPClientError {
            if client == .deadlineExceeded || client == .readTimeout || client == .connectTimeout { return .timeout }
            if client == .cancelled { return .transport("the request to \(url) was cancelled") }
        }
        if let tls = ServerTrust.describe(error, url: url) { return .transport(tls) }
        if error is NIOTooManyBytesError { return .invalidResponse("the answer of \(url) is too large") }
        if let io = error as? IOError { return .transport("cannot connect to \(url): \(io.description)") }
        let text = "\(error)"
        if text.contains("connectTimeout") || text.contains("deadline") { return .timeout }
        return .transport("cannot reach \(url): \(text)")
    }
}
