import Foundation
import GRDB
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

    public func ring() {
        for listener in lock.withLock({ Array(listeners.values) }) { listener.signal?.signal() }
    }
}

extension PlatformEngine {
    /// Stores an event of `applicationKey` inside the caller's transaction.
    func appendEvent(_ db: Database, applicationKey: String, _ event: PlatformEvent) throws {
        let payload = try HeraldJSON.encode(event)
        try db.execute(sql: "INSERT INTO event(applicationKey, type, payload, createdAt) VALUES (?, ?, ?, ?)",
                       arguments: [applicationKey, event.type, String(decoding: payload, as: UTF8.self), nowMs])
    }

    /// Events of an application after `id`, oldest first (a read beside the engine's work, not behind it).
    public nonisolated func events(applicationKey: String, after id: Int64, limit: Int = 500) throws -> [StoredEvent] {
        try pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, type, payload, createdAt FROM event WHERE applicationKey = ? AND id > ? ORDER BY id LIMIT ?
                """, arguments: [applicationKey, id, limit]).map { row in
                StoredEvent(id: row["id"], type: row["type"], payload: Data((row["payload"] as String).utf8),
                            createdAt: Date(epochMilliseconds: row["createdAt"]))
            }
        }
    }

    /// The id of the newest event of an application (0 when there is none).
    public nonisolated func lastEventId(applicationKey: String) throws -> Int64 {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM event WHERE applicationKey = ?", arguments: [applicationKey]) ?? 0
        }
    }

    /// Removes events older than `age` seconds; a subscriber away longer starts from a fresh snapshot.
    @discardableResult
    public func pruneEvents(olderThan age: TimeInterval) throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-age).epochMilliseconds
        return try pool.write { db in
            try db.execute(sql: "DELETE FROM event WHERE createdAt < ?", arguments: [cutoff])
            return db.changesCount
        }
    }
}

extension PlatformEngine {
    /// The id of the oldest event still kept for an application; nil when there is none.
    public nonisolated func oldestEventId(applicationKey: String) throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM event WHERE applicationKey = ?", arguments: [applicationKey])
        }
    }
}
