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

    var responseBeforeProcessing: APIResponse? {
        switch self {
        case .serverError(let status):
            let s = (500...599).contains(status) ? status : 500
            return APIError.server(status: s, text: "Injected fault").response
        case .tooManyRequests(let after): return APIError.tooManyRequests(retryAfter: TimeInterval(max(0, after))).response
        case .timeout: return APIError.timeout.response
        case .timeoutAfterProcessing: return nil
        }
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
