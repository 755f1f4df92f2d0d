import Foundation
import HeraldAPI
import HeraldHTTP
import Logging
import NIOConcurrencyHelpers

/// Calls to one Infobip base URL with `Authorization: App <key>`: a 429 waits for its `Retry-After` (seconds
/// or an HTTP date) when that is short, 5xx and lost connections back off and try again, a `Deprecation` or
/// `Sunset` header is logged once per path, and every failure becomes an `InfobipError`.
struct InfobipHTTP: Sendable {
    let transport: HTTPTransport
    let authorization: String
    let keySource: String
    let attempts: Int
    let maxRetryWait: Double
    let sleep: @Sendable (Double) async throws -> Void
    let clock: @Sendable () -> Date
    let log = Logger(label: "herald.infobip")
    private let warned = NIOLockedValueBox(Set<String>())

    init(baseURL: URL, authorization: String, keySource: String, attempts: Int, maxRetryWait: Double,
         sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) },
         clock: @escaping @Sendable () -> Date = Date.init) {
        self.transport = HTTPTransport(baseURL: baseURL, timeout: 30)
        self.authorization = authorization
        self.keySource = keySource
        self.attempts = max(1, attempts)
        self.maxRetryWait = maxRetryWait
        self.sleep = sleep
        self.clock = clock
    }

    /// The body of a successful answer to `method path?query`.
    /// `repeatable` false (sending SMS, which Infobip cannot deduplicate): a lost answer (no answer, a 5xx) is thrown at
    /// once instead of repeating the request, as the first one may have been accepted; only a 429 is waited out.
    func call(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], body: Data? = nil,
              headers: [String: String] = [:], repeatable: Bool = true) async throws(InfobipError) -> Data {
        var request = APIRequest(method: method, path: path, headers: headers, body: body)
        request.headers["Authorization"] = authorization
        request.headers["Accept"] = "application/json"
        if body != nil { request.headers["Content-Type"] = "application/json" }
        var attempt = 0
        while true {
            attempt += 1
            let response: APIResponse
            do {
                response = try await transport.send(request, queryItems: query)
            } catch {
                if repeatable, attempt < attempts { try await pause(Self.jittered(backoff(attempt))); continue }
                throw .unreachable(error.description)
            }
            noteDeprecation(response, path: path)
            if response.isSuccess { return response.body }
            let detail = InfobipErrorEnvelope.parse(response.body)?.summary ?? "no error description"
            switch response.status {
            case 429:
                let wait = Self.retryAfter(response.header("Retry-After"), now: clock()) ?? backoff(attempt)
                guard attempt < attempts, wait <= maxRetryWait else { throw .rateLimited(retryAfter: wait) }
                log.info("Infobip asks to wait", metadata: ["path": "\(path)", "seconds": "\(wait)"])
                try await pause(Self.jittered(wait))
            case 500...:
                guard repeatable, attempt < attempts else { throw .unavailable(status: response.status, detail: detail) }
                try await pause(Self.jittered(backoff(attempt)))
            case 401:
                throw .refusedKey(status: response.status, detail: detail, source: keySource)
            case 403:
                throw .missingScope(detail: detail, needs: Self.scopes(for: path), source: keySource)
            default:
                throw .rejected(status: response.status, detail: detail)
            }
        }
    }

    /// The scopes Infobip publishes for an endpoint, in words.
    static func scopes(for path: String) -> String {
        switch path {
        case "/sms/3/messages": return "sending SMS needs sms:message:send (or message:send, or sms:manage)"
        case "/sms/3/logs": return "reading SMS logs needs sms:logs:read (or sms:manage)"
        default: return "\(path) needs a scope this key does not have"
        }
    }

    /// A decoded successful answer.
    func call<T: Decodable>(_ type: T.Type, _ method: HTTPMethod, _ path: String, query: [(String, String)] = [],
                            body: Data? = nil, repeatable: Bool = true) async throws(InfobipError) -> T {
        let data = try await call(method, path, query: query, body: body, repeatable: repeatable)
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw .unreadable("\(path): \(Self.decodingText(error))")
        }
    }

    private func pause(_ seconds: Double) async throws(InfobipError) {
        do { try await sleep(seconds) } catch { throw .unreachable("cancelled") }
    }

    /// 0.5 s, 1 s, 2 s, … capped at the longest wait allowed.
    /// Up to a quarter more, at random: replicas and terminals told to wait alike do not all come back at once.
    static func jittered(_ seconds: Double) -> Double { seconds * (1 + Double.random(in: 0...0.25)) }

    private func backoff(_ attempt: Int) -> Double { min(maxRetryWait, 0.5 * Double(1 << min(attempt - 1, 8))) }

    private func noteDeprecation(_ response: APIResponse, path: String) {
        let deprecation = response.header("Deprecation")
        let sunset = response.header("Sunset")
        guard deprecation != nil || sunset != nil else { return }
        guard warned.withLockedValue({ $0.insert(path).inserted }) else { return }
        log.warning("Infobip marks this API as deprecated", metadata: [
            "path": "\(path)", "deprecation": "\(deprecation ?? "-")", "sunset": "\(sunset ?? "-")",
        ])
    }

    /// Seconds to wait from a `Retry-After` value: whole seconds, or an HTTP date (RFC 9110), clamped to
    /// `RetryAfter.maxSeconds`; nil when absent or unreadable.
    static func retryAfter(_ value: String?, now: Date) -> Double? { RetryAfter.seconds(value, now: now) }

    /// A decoding failure naming the field.
    static func decodingText(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let c): return "\(path(c)).\(key.stringValue) is missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "\(path(c)) has the wrong type"
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not JSON" : "\(path(c)) is malformed"
        @unknown default: return "\(error)"
        }
    }
}
