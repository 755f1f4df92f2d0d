import Foundation
import HeraldAPI

/// Email invitations per server key in the last hour, on this replica: a key that goes over is answered 429 with the
/// time until enough of its hour has passed. A key's own mail identity is the team's, so its sending is bounded.
final class EmailQuota: @unchecked Sendable {
    private let lock = NSLock()
    /// Per key id: when emails were taken, and how many, oldest first.
    private var taken: [String: [(at: Date, count: Int)]] = [:]
    static let window: TimeInterval = 3600

    /// Takes `count` emails for `keyId` at `now` within `limit` an hour; throws (and takes nothing) when they do not fit.
    func take(_ count: Int, keyId: String, limit: Int, now: Date) throws {
        guard count > 0 else { return }
        if count > limit {
            throw APIError.badRequest("too many email recipients: \(count); a key sends at most \(limit) emails an hour",
                                      validationErrors: ["recipients.destinations": ["at most \(limit) emails an hour per key"]])
        }
        let wait: TimeInterval? = lock.withLock {
            var entries = taken[keyId, default: []].filter { now.timeIntervalSince($0.at) < Self.window }
            defer { taken[keyId] = entries }
            var used = entries.reduce(0) { $0 + $1.count }
            guard used + count > limit else {
                entries.append((now, count))
                return nil
            }
            // The oldest entries leave the window first: wait until enough of them have.
            for entry in entries {
                used -= entry.count
                if used + count <= limit { return max(1, Self.window - now.timeIntervalSince(entry.at)) }
            }
            return Self.window
        }
        if let wait { throw APIError.tooManyRequests(retryAfter: wait.rounded(.up)) }
    }
}
