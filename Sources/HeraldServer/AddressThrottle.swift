import Foundation

/// Counts events per client address in a fixed window (failed authentications, short-link clicks) and says when an
/// address has used up its allowance. Bounded: at most `capacity` addresses are tracked; when full, the oldest
/// windows are forgotten first, so a flood from many addresses costs memory of `capacity` entries at most.
final class AddressThrottle: @unchecked Sendable {
    private struct Window { var start: TimeInterval; var count: Int }

    let limit: Int
    let window: TimeInterval
    let capacity: Int
    private let lock = NSLock()
    private var windows: [String: Window] = [:]
    private let now: @Sendable () -> TimeInterval

    init(limit: Int, window: TimeInterval, capacity: Int = 10_000,
         now: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
        self.now = now
    }

    /// Seconds until `address` may go on, nil when it may now (nothing is counted).
    func retryAfter(_ address: String) -> TimeInterval? {
        let t = now()
        return lock.withLock {
            guard let w = windows[address], t - w.start < window, w.count >= limit else { return nil }
            return max(1, (w.start + window - t).rounded(.up))
        }
    }

    /// Counts one event of `address`; answers the seconds to wait when this one went over the allowance.
    @discardableResult
    func count(_ address: String) -> TimeInterval? {
        let t = now()
        return lock.withLock {
            var w = windows[address] ?? Window(start: t, count: 0)
            if t - w.start >= window { w = Window(start: t, count: 0) }
            w.count += 1
            if windows[address] == nil, windows.count >= capacity { evict(at: t) }
            windows[address] = w
            return w.count > limit ? max(1, (w.start + window - t).rounded(.up)) : nil
        }
    }

    /// Addresses tracked now (for tests and metrics).
    var tracked: Int { lock.withLock { windows.count } }

    /// Drops ended windows, and when none has ended, the older half.
    private func evict(at t: TimeInterval) {
        windows = windows.filter { t - $0.value.start < window }
        guard windows.count >= capacity else { return }
        let keep = windows.sorted { $0.value.start > $1.value.start }.prefix(capacity / 2)
        windows = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
}
