import Foundation
import HeraldEngine
import Logging
import ServiceLifecycle

/// Counts short-link openings (`/r/{code}`) in memory and writes them every `interval` in one unit of work, so a
/// burst of clicks costs one read each (does the link exist) and one write per interval, not a write transaction per
/// request. At most `maxPending` distinct codes wait; beyond that clicks are written at once. Stopping writes the rest.
final class ClickCounter: Service, @unchecked Sendable {
    let engine: PlatformEngine
    let interval: TimeInterval
    let maxPending: Int
    private let lock = NSLock()
    private var pending: [String: Int] = [:]
    private let log = Logger(label: "herald.server")

    init(engine: PlatformEngine, interval: TimeInterval = 0.25, maxPending: Int = 10_000) {
        self.engine = engine
        self.interval = interval
        self.maxPending = maxPending
    }

    /// Counts one opening of `code`; false when no such link exists.
    func click(_ code: String) async throws -> Bool {
        guard try await engine.shortLinkExists(code: code) else { return false }
        let full = lock.withLock { () -> Bool in
            pending[code, default: 0] += 1
            return pending.count >= maxPending
        }
        if full { await flush() }
        return true
    }

    /// Writes what was counted; kept for the next try when the write fails.
    func flush() async {
        let batch = lock.withLock { () -> [String: Int] in
            defer { pending = [:] }
            return pending
        }
        guard !batch.isEmpty else { return }
        do { try await engine.recordClicks(batch) } catch {
            log.warning("clicks not stored yet", metadata: ["links": "\(batch.count)", "cause": "\(PlatformEngine.failureText(error))"])
            lock.withLock { pending.merge(batch, uniquingKeysWith: +) }
        }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(self.interval * 1_000_000_000))
                await self.flush()
            }
        }
        await flush()
    }
}
