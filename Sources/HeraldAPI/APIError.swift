import Foundation

/// Everything that can go wrong talking to the platform, typed so callers can decide
/// (retry later, ask for a token, show the text…).
public enum APIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 401 UNAUTHORIZED: wrong key or token, or a token refused for any reason (no detail given).
    case unauthorized
    /// 401 ACCESS_TOKEN_MISSING: the application requires a JWT and got an application code.
    case accessTokenMissing
    /// 403: the application does not allow this (e.g. message editing is off).
    case forbidden(String)
    /// 404, with the server's text ("Message not found for specified request ID").
    case notFound(String)
    /// 400 (and other 4xx), with the server's text and per-field validation errors.
    case badRequest(String, validationErrors: [String: [String]])
    /// 429; `retryAfter` in seconds from the `Retry-After` header when present.
    case tooManyRequests(retryAfter: TimeInterval?)
    /// 5xx other than a gateway timeout.
    case server(status: Int, text: String)
    /// The call took too long (408 or 504 from the platform, or a transport timeout).
    case timeout
    /// The platform could not be reached or the connection broke.
    case transport(String)
    /// A 2xx answer whose body was not what the endpoint promised.
    case invalidResponse(String)
    /// The request could not be built (missing path parameter, unencodable body).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .unauthorized: return "not authorised: check the application key or token"
        case .accessTokenMissing: return "this application requires a user token (JWT)"
        case .forbidden(let text): return "not allowed: \(text)"
        case .notFound(let text): return "not found: \(text)"
        case .badRequest(let text, let errors):
            if errors.isEmpty { return "bad request: \(text)" }
            let detail = errors.keys.sorted().map { "\($0): \(errors[$0, default: []].joined(separator: ", "))" }
            return "bad request: \(text) (\(detail.joined(separator: "; ")))"
        case .tooManyRequests(let after):
            if let after { return "too many requests: retry in \(RetryAfter.wholeSeconds(after)) s" }
            return "too many requests: retry later"
        case .server(let status, let text): return "platform error \(status): \(text)"
        case .timeout: return "the platform did not answer in time"
        case .transport(let text): return "cannot reach the platform: \(text)"
        case .invalidResponse(let text): return "unexpected answer from the platform: \(text)"
        case .invalidRequest(let text): return "cannot build the request: \(text)"
        }
    }

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .tooManyRequests, .server, .timeout, .transport: return true
        default: return false
        }
    }

    /// The error a non-2xx response stands for. Reads the error envelope when there is one,
    /// falls back on the status alone when the body is not an envelope.
    public init(response: APIResponse) {
        let exception = (try? HeraldJSON.decode(ErrorEnvelope.self, from: response.body))?.exception
        let text = exception?.text ?? HTTPStatusText.text(for: response.status)
        let messageId = exception?.messageId
        switch response.status {
        case 401:
            self = messageId == ErrorMessageId.accessTokenMissing ? .accessTokenMissing : .unauthorized
        case 403:
            self = .forbidden(text)
        case 404:
            self = .notFound(text)
        case 408, 504:
            self = .timeout
        case 429:
            self = .tooManyRequests(retryAfter: Self.retryAfter(response.header("Retry-After")))
        case 400..<500:
            self = .badRequest(text, validationErrors: exception?.validationErrors ?? [:])
        default:
            self = .server(status: response.status, text: text)
        }
    }

    /// Seconds from a `Retry-After` value, clamped (`RetryAfter`): a hostile or broken answer cannot park a client for ever.
    static func retryAfter(_ value: String?) -> TimeInterval? { RetryAfter.seconds(value) }

    /// The response the platform answers this error with (status, envelope, `Retry-After`).
    public var response: APIResponse {
        let status: Int
        let envelope: ErrorEnvelope
        var headers = ["Content-Type": "application/json"]
        switch self {
        case .unauthorized:
            status = 401; envelope = ErrorEnvelope(messageId: ErrorMessageId.unauthorized, text: "Invalid login details")
        case .accessTokenMissing:
            status = 401
            envelope = ErrorEnvelope(messageId: ErrorMessageId.accessTokenMissing, text: "Access token is missing")
        case .forbidden(let text):
            status = 403; envelope = ErrorEnvelope(messageId: ErrorMessageId.forbidden, text: text)
        case .notFound(let text):
            status = 404; envelope = ErrorEnvelope(messageId: ErrorMessageId.notFound, text: text)
        case .badRequest(let text, let errors):
            status = 400
            envelope = ErrorEnvelope(messageId: ErrorMessageId.badRequest, text: text,
                                     validationErrors: errors.isEmpty ? nil : errors)
        case .invalidRequest(let text):
            status = 400; envelope = ErrorEnvelope(messageId: ErrorMessageId.badRequest, text: text)
        case .tooManyRequests(let after):
            status = 429
            envelope = ErrorEnvelope(messageId: ErrorMessageId.tooManyRequests, text: "Too many requests")
            if let after { headers["Retry-After"] = String(RetryAfter.wholeSeconds(after)) }
        case .timeout:
            status = 504; envelope = ErrorEnvelope(messageId: ErrorMessageId.timeout, text: "Request timed out")
        case .server(let s, let text):
            status = s; envelope = ErrorEnvelope(messageId: ErrorMessageId.forStatus(s), text: text)
        case .transport(let text), .invalidResponse(let text):
            status = 500; envelope = ErrorEnvelope(messageId: ErrorMessageId.generalError, text: text)
        }
        let body = (try? HeraldJSON.encode(envelope)) ?? Data()
        return APIResponse(status: status, headers: headers, body: body)
    }
}

enum HTTPStatusText {
    static func text(for status: Int) -> String {
        switch status {
        case 400: return "Bad request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not found"
        case 429: return "Too many requests"
        case 500: return "Internal server error"
        case 502: return "Bad gateway"
        case 503: return "Service unavailable"
        default: return "HTTP status \(status)"
        }
    }
}
