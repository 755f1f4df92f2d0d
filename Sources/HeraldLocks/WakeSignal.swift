import Foundation

/// A sleep that can be cut short: `wait(upTo:)` returns after the timeout or as soon as `signal()`
/// is called, whichever comes first. A signal sent while nobody waits is kept for the next wait, so
/// none is lost. Loops that poll on a schedule use it to wake for work instead of spinning.
public final class WakeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var waiter: CheckedContinuation<Void, Never>?
    private var pending = false
    private var generation = 0
    private var timedOut = -1

    public init() {}

    /// Wakes the current wait (or the next one).
    public func signal() {
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            guard let waiter else { pending = true; return nil }
            self.waiter = nil
            return waiter
        }
        resume?.resume()
    }

    /// Waits up to `seconds`, or until signalled; true when signalled.
    @discardableResult
    public func wait(upTo seconds: TimeInterval) async -> Bool {
        let signalled: Bool = lock.withLock {
            defer { pending = false }
            return pending
        }
        if signalled { return true }
        let ticket: Int = lock.withLock {
            generation += 1
            return generation
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already: Bool = lock.withLock {
                if pending { pending = false; return true }
                waiter = continuation
                return false
            }
            if already { continuation.resume(); return }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
                let resume: CheckedContinuation<Void, Never>? = self.lock.withLock {
                    guard self.generation == ticket, let waiter = self.waiter else { return nil }
                    self.waiter = nil
                    self.timedOut = ticket
                    return waiter
                }
                resume?.resume()
            }
        }
        return lock.withLock { timedOut != ticket }
    }
}
