import Foundation

/// The error body every Infobip-style API answers with:
/// `{"requestError": {"serviceException": {"messageId", "text", "validationErrors"}}}` (or `policyException`).
public struct ErrorEnvelope: Codable, Sendable, Hashable {
    public var requestError: RequestError

    public init(requestError: RequestError) { self.requestError = requestError }

    /// A service exception envelope.
    public init(messageId: String, text: String, validationErrors: [String: [String]]? = nil) {
        self.requestError = RequestError(serviceException: ServiceException(messageId: messageId, text: text,
                                                                            validationErrors: validationErrors))
    }

    /// The exception carried, service first.
    public var exception: ServiceException? { requestError.serviceException ?? requestError.policyException }
}

public struct RequestError: Codable, Sendable, Hashable {
    public var serviceException: ServiceException?
    public var policyException: ServiceException?

    public init(serviceException: ServiceException? = nil, policyException: ServiceException? = nil) {
        self.serviceException = serviceException
        self.policyException = policyException
    }
}

/// The inner shape of `serviceException` and `policyException`.
public struct ServiceException: Codable, Sendable, Hashable {
    /// A stable id: BAD_REQUEST, UNAUTHORIZED, ACCESS_TOKEN_MISSING, NOT_FOUND, TOO_MANY_REQUESTS, GENERAL_ERROR…
    public var messageId: String
    public var text: String
    public var validationErrors: [String: [String]]?

    public init(messageId: String, text: String, validationErrors: [String: [String]]? = nil) {
        self.messageId = messageId
        self.text = text
        self.validationErrors = validationErrors
    }
}

/// The message ids Herald's engine answers with.
public enum ErrorMessageId {
    public static let badRequest = "BAD_REQUEST"
    public static let unauthorized = "UNAUTHORIZED"
    public static let accessTokenMissing = "ACCESS_TOKEN_MISSING"
    public static let forbidden = "FORBIDDEN"
    public static let notFound = "NOT_FOUND"
    public static let tooManyRequests = "TOO_MANY_REQUESTS"
    public static let generalError = "GENERAL_ERROR"
    public static let timeout = "TIMEOUT"
    public static let methodNotAllowed = "METHOD_NOT_ALLOWED"
    public static let payloadTooLarge = "PAYLOAD_TOO_LARGE"
    public static let serviceUnavailable = "SERVICE_UNAVAILABLE"

    /// The id of a status answered without a more precise one.
    static func forStatus(_ status: Int) -> String {
        switch status {
        case 405: return methodNotAllowed
        case 413: return payloadTooLarge
        case 429: return tooManyRequests
        case 503: return serviceUnavailable
        default: return generalError
        }
    }
}
