import Foundation
import HeraldEngine
import Logging
import ServiceLifecycle

/// The keys revoked on this platform, read once a second by each replica (one small query, whatever the number of
/// subscribers), so an event stream opened with a key ends within about a second of its revocation on every replica.
/// A new revocation rings the engine's bell, which wakes every stream to look.
final class KeyRevocations: Service, @unchecked Sendable {
    let engine: PlatformEngine
    let interval: TimeInterval
    private let lock = NSLock()
    private var revoked: Set<String> = []
    private let log = Logger(label: "herald.server")

    init(engine: PlatformEngine, interval: TimeInterval = 1) {
        self.engine = engine
        self.interval = interval
    }

    func isRevoked(_ keyId: String) -> Bool { lock.withLock { revoked.contains(keyId) } }

    /// Reads the revoked keys once; true when one was new.
    @discardableResult
    func refresh() async -> Bool {
        let ids: Set<String>
        do { ids = try await engine.revokedServerKeyIds() } catch {
            log.warning("cannot read revoked keys", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
            return false
        }
        let grew = lock.withLock {
            defer { revoked = ids }
            return !ids.isSubset(of: revoked)
        }
        if grew { engine.bell.ring() }
        return grew
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.refresh()
                try? await Task.sleep(nanoseconds: UInt64(self.interval * 1_000_000_000))
            }
        }
    }
}
