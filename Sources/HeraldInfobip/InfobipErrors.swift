import Foundation
import HeraldAPI

/// What Infobip says when it refuses a request, in either of its envelopes: the flat one of the v3 APIs
/// (`errorCode`, `description`, `action`, `violations[{property, violation}]`) or the older
/// `{"requestError": {"serviceException": {"messageId", "text", "validationErrors"}}}`.
public struct InfobipErrorEnvelope: Sendable, Hashable {
    public var code: String?
    public var text: String
    public var action: String?
    /// What is wrong with which field.
    public var violations: [Violation]

    public struct Violation: Sendable, Hashable {
        public var property: String
        public var violation: String
    }

    /// The envelope of an answer body; nil when it is neither shape.
    public static func parse(_ body: Data) -> InfobipErrorEnvelope? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        if let request = object["requestError"] as? [String: Any] {
            let exception = (request["serviceException"] ?? request["policyException"]) as? [String: Any] ?? [:]
            var violations: [Violation] = []
            if let fields = exception["validationErrors"] as? [String: Any] {
                for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
                    for text in (value as? [String]) ?? [(value as? String) ?? "\(value)"] { violations.append(Violation(property: field, violation: text)) }
                }
            }
            return InfobipErrorEnvelope(code: exception["messageId"] as? String,
                                        text: exception["text"] as? String ?? "no description", action: nil,
                                        violations: violations)
        }
        guard object["errorCode"] != nil || object["description"] != nil else { return nil }
        let violations = (object["violations"] as? [[String: Any]] ?? []).map {
            Violation(property: $0["property"] as? String ?? "?", violation: $0["violation"] as? String ?? "invalid")
        }
        return InfobipErrorEnvelope(code: object["errorCode"].map { "\($0)" }, text: object["description"] as? String ?? "no description",
                                    action: object["action"] as? String, violations: violations)
    }

    /// One line: the text, each violation naming its field, and the suggested action.
    public var summary: String {
        var parts = [text]
        if !violations.isEmpty {
            parts.append(violations.map { "\($0.property): \($0.violation)" }.joined(separator: "; "))
        }
        if let action, !action.isEmpty { parts.append(action) }
        return parts.joined(separator: " — ")
    }
}

/// A failed call to Infobip, in words a user can act on. Never holds the key.
public enum InfobipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 401: the key (or application code) was refused; `source` says where it is configured.
    case refusedKey(status: Int, detail: String, source: String)
    /// 403: the key is valid but lacks the scope this needs; `needs` says which scopes would do.
    case missingScope(detail: String, needs: String, source: String)
    /// 4xx: Infobip calls the request invalid; `detail` names the fields.
    case rejected(status: Int, detail: String)
    /// 429 with a wait longer than a call may take.
    case rateLimited(retryAfter: Double)
    /// 5xx after every attempt.
    case unavailable(status: Int, detail: String)
    /// No answer at all.
    case unreachable(String)
    /// An answer Herald cannot read.
    case unreadable(String)

    public var description: String {
        switch self {
        case .refusedKey(let status, let detail, let source):
            return "the Infobip API key was refused (HTTP \(status): \(detail)); check \(source)"
        case .missingScope(let detail, let needs, let source):
            return "the Infobip API key lacks a scope (HTTP 403: \(detail)): \(needs); add it to the key on the Infobip portal (\(source))"
        case .rejected(let status, let detail):
            return "Infobip refused the request (HTTP \(status)): \(detail)"
        case .rateLimited(let wait):
            return "Infobip asks to slow down: try again in \(RetryAfter.wholeSeconds(wait)) s"
        case .unavailable(let status, let detail):
            return "Infobip is failing (HTTP \(status): \(detail)); Herald tries again later"
        case .unreachable(let why):
            return "cannot reach Infobip: \(why)"
        case .unreadable(let why):
            return "Infobip answered something Herald cannot read: \(why)"
        }
    }

    /// Whether Infobip said to wait (429): the request was not processed.
    public var isRateLimit: Bool {
        if case .rateLimited = self { return true }
        return false
    }

    /// Whether trying the same request again later cannot help (a refused key, an invalid request).
    public var isPermanent: Bool {
        switch self {
        case .refusedKey, .missingScope, .rejected: return true
        default: return false
        }
    }
}
