import Foundation
import HeraldAPI

/// A failure the engine can be told to answer with, for tests and demos.
///
/// A timeout cannot be felt in-process without sleeping, so the engine answers it with status 504 and
/// messageId `TIMEOUT`, which `APIError(response:)` maps to `.timeout` (as it does a gateway timeout).
public enum EngineFault: Sendable, Hashable {
    /// A 5xx GENERAL_ERROR before anything is done.
    case serverError(status: Int)
    /// 429 TOO_MANY_REQUESTS with `Retry-After: <seconds>`, before anything is done.
    case tooManyRequests(retryAfter: Int)
    /// 504 TIMEOUT before anything is done.
    case timeout
    /// The request IS processed, but the answer is lost: 504 TIMEOUT (how a crash or a dropped
    /// connection looks to a client; replaying with the same messageIds must not send twice).
    case timeoutAfterProcessing
    /// The request IS processed, then answered with this 5xx: how a remote server (or a proxy in front
    /// of it) that accepted and then failed looks to a client.
    case serverErrorAfterProcessing(status: Int)
    /// The request is processed after this many seconds: a slow platform (to catch a client mid-call).
    case delay(seconds: Double)

    var responseBeforeProcessing: APIResponse? {
        switch self {
        case .serverError(let status):
            let s = (500...599).contains(status) ? status : 500
            return APIError.server(status: s, text: "Injected fault").response
        case .tooManyRequests(let after): return APIError.tooManyRequests(retryAfter: TimeInterval(max(0, after))).response
        case .timeout: return APIError.timeout.response
        case .timeoutAfterProcessing, .serverErrorAfterProcessing, .delay: return nil
        }
    }

    /// The answer that replaces a processed request's own answer, if any.
    var responseAfterProcessing: APIResponse? {
        switch self {
        case .timeoutAfterProcessing: return APIError.timeout.response
        case .serverErrorAfterProcessing(let status):
            let s = (500...599).contains(status) ? status : 500
            return APIError.server(status: s, text: "Injected fault after processing").response
        default: return nil
        }
    }
}

/// Faults to inject from the start, as written in `HERALD_SANDBOX_FAULTS` (so the binary can be tested
/// from outside): a comma-separated list of `ROUTE=FAULT[*COUNT]`. ROUTE is `send`, `deliveries`,
/// `inbox`, `seen` or `any`; FAULT is `NNN` (a 5xx before anything is done), `NNN-after` (processed,
/// then answered with that 5xx), `429` or `429:SECONDS`, `timeout`, `timeout-after`, or `delay:SECONDS`
/// (processed that much later); COUNT defaults to 1.
public struct FaultPlan: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var fault: EngineFault
        public var count: Int
        public var pathPrefix: String?
    }

    public static let variable = "HERALD_SANDBOX_FAULTS"
    static let routes: [String: String?] = [
        "send": "/1/social-invite/invitation", "deliveries": "/1/smsmessaging", "inbox": "/mobile/1/user",
        "seen": "/mobile/2/messages/seen", "any": nil,
    ]

    public var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    /// Reads a plan; the error names the entry that cannot be read and shows the syntax.
    public init(parsing text: String) throws(EngineError) {
        var entries: [Entry] = []
        for raw in text.split(separator: ",") {
            let item = raw.trimmingCharacters(in: .whitespaces)
            guard !item.isEmpty else { continue }
            let bad = EngineError.invalidConfig(
                "\(Self.variable): cannot read \"\(item)\"; write ROUTE=FAULT[*COUNT], ROUTE one of send, deliveries, inbox, seen, any; FAULT one of 500-599, NNN-after, 429, 429:SECONDS, timeout, timeout-after, delay:SECONDS (e.g. send=503-after*2)")
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let route = Self.routes[parts[0].lowercased()] else { throw bad }
            var faultText = parts[1].lowercased()
            var count = 1
            if let star = faultText.firstIndex(of: "*") {
                guard let n = Int(faultText[faultText.index(after: star)...]), n > 0, n <= 1_000_000 else { throw bad }
                count = n
                faultText = String(faultText[..<star])
            }
            let fault: EngineFault
            if faultText == "timeout" {
                fault = .timeout
            } else if faultText == "timeout-after" {
                fault = .timeoutAfterProcessing
            } else if faultText == "429" {
                fault = .tooManyRequests(retryAfter: 1)
            } else if faultText.hasPrefix("429:"), let seconds = Int(faultText.dropFirst(4)), seconds >= 0 {
                fault = .tooManyRequests(retryAfter: seconds)
            } else if faultText.hasPrefix("delay:"), let seconds = Double(faultText.dropFirst(6)), seconds >= 0, seconds <= 3600 {
                fault = .delay(seconds: seconds)
            } else if faultText.hasSuffix("-after"), let status = Int(faultText.dropLast(6)), (500...599).contains(status) {
                fault = .serverErrorAfterProcessing(status: status)
            } else if let status = Int(faultText), (500...599).contains(status) {
                fault = .serverError(status: status)
            } else {
                throw bad
            }
            entries.append(Entry(fault: fault, count: count, pathPrefix: route))
        }
        self.entries = entries
    }

    /// The plan of `HERALD_SANDBOX_FAULTS`; empty when unset.
    public static func fromEnvironment(_ env: [String: String]) throws(EngineError) -> FaultPlan {
        guard let text = env[variable], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return FaultPlan() }
        return try FaultPlan(parsing: text)
    }
}

/// Pending injected faults, consumed in order by matching requests.
struct FaultQueue: Sendable {
    struct Entry: Sendable {
        var fault: EngineFault
        var remaining: Int
        var pathPrefix: String?
    }

    var entries: [Entry] = []

    mutating func next(for request: APIRequest) -> EngineFault? {
        guard let i = entries.firstIndex(where: { $0.pathPrefix.map(request.path.hasPrefix) ?? true }) else { return nil }
        let fault = entries[i].fault
        entries[i].remaining -= 1
        if entries[i].remaining <= 0 { entries.remove(at: i) }
        return fault
    }

    var pending: Int { entries.reduce(0) { $0 + $1.remaining } }
}

extension PlatformEngine {
    /// The next `count` calls of `handle(_:)` (only those whose path starts with `pathPrefix`, when given)
    /// fail with `fault`. Faults queue up in the order injected.
    public func injectFaults(_ fault: EngineFault, count: Int = 1, pathPrefix: String? = nil) {
        guard count > 0 else { return }
        faults.entries.append(FaultQueue.Entry(fault: fault, remaining: count, pathPrefix: pathPrefix))
    }

    /// Forgets every pending fault.
    public func clearFaults() { faults.entries.removeAll() }

    /// How many injected failures are still to come.
    public var pendingFaults: Int { faults.pending }
}
