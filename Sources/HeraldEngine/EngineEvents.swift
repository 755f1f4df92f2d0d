import Foundation
import HeraldAPI
import HeraldLocks

/// One event of an application's stream as stored: written in the same transaction as the change it tells of,
/// numbered in commit order, so a subscriber that comes back asks for everything after the last id it saw.
public struct StoredEvent: Sendable, Hashable {
    public var id: Int64
    /// The event's `__type`.
    public var type: String
    /// The event as JSON (one line), `__type` included.
    public var payload: Data
    public var createdAt: Date
}

/// Rings after every commit that stored events, waking whoever waits for them (the server's subscribers)
/// without a poll. Each listener is a `WakeSignal`: a ring while it is busy is kept for its next wait.
public final class EventBell: @unchecked Sendable {
    private let lock = NSLock()
    private var listeners: [ObjectIdentifier: WeakSignal] = [:]

    private struct WeakSignal { weak var signal: WakeSignal? }

    public init() {}

    /// A signal rung after each commit with events, for as long as the caller keeps it.
    public func listen() -> WakeSignal {
        let signal = WakeSignal()
        lock.withLock {
            listeners = listeners.filter { $0.value.signal != nil }
            listeners[ObjectIdentifier(signal)] = WeakSignal(signal: signal)
        }
        return signal
    }

    private var rings: UInt64 = 0

    /// How many times the bell has rung: a reader that started after generation N has seen every commit rung before.
    public var generation: UInt64 { lock.withLock { rings } }

    public func ring() {
        for listener in lock.withLock({ rings += 1; return Array(listeners.values) }) { listener.signal?.signal() }
    }
}

extension PlatformEngine {
    /// Stores an event of `applicationKey` inside the caller's unit of work.
    nonisolated func appendEvent(_ db: any EngineSQL, applicationKey: String, _ event: PlatformEvent) throws {
        try db.events.append(applicationKey: applicationKey, type: event.type, payload: try HeraldJSON.encode(event), at: nowMs)
    }

    /// Events of an application after `id`, oldest first (a read beside the engine's work, not behind it).
    public nonisolated func events(applicationKey: String, after id: Int64, limit: Int = 500) async throws -> [StoredEvent] {
        try await store.read { db in try db.events.after(id, applicationKey: applicationKey, limit: limit) }
    }

    /// The ids of the newest and the oldest event of an application (0 and nil when there is none).
    public nonisolated func eventRange(applicationKey: String) async throws -> (newest: Int64, oldest: Int64?) {
        try await store.read { db in try db.events.range(applicationKey: applicationKey) }
    }

    /// Removes events older than `age` seconds; a subscriber away longer starts from a fresh snapshot.
    @discardableResult
    public func pruneEvents(olderThan age: TimeInterval) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-age).epochMilliseconds
        return try await store.write { db in try db.events.prune(before: cutoff) }
    }
}
