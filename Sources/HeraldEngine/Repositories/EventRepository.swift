import Foundation

/// Each application's event stream (`event`), numbered in commit order.
struct EventRepository {
    let db: any EngineSQL

    /// Stores an event inside the caller's unit of work and tells other replicas once it commits.
    func append(applicationKey: String, type: String, payload: Data, at: Int64) throws {
        try db.execute("INSERT INTO event(applicationKey, type, payload, createdAt) VALUES (?, ?, ?, ?)",
                       [applicationKey, type, String(decoding: payload, as: UTF8.self), at])
        try db.announceEvents()
    }

    /// At most `limit` events of an application after `id`, oldest first.
    func after(_ id: Int64, applicationKey: String, limit: Int) throws -> [StoredEvent] {
        try db.rows("SELECT id, type, payload, createdAt FROM event WHERE applicationKey = ? AND id > ? ORDER BY id LIMIT ?",
                    [applicationKey, id, limit]).map { row in
            StoredEvent(id: row["id"], type: row["type"], payload: Data((row["payload"] as String).utf8),
                        createdAt: Date(epochMilliseconds: row["createdAt"]))
        }
    }

    /// The ids of the newest and the oldest event of an application (0 and nil when there is none).
    func range(applicationKey: String) throws -> (newest: Int64, oldest: Int64?) {
        let row = try db.row("SELECT MAX(id) AS newest, MIN(id) AS oldest FROM event WHERE applicationKey = ?", [applicationKey])
        return ((row?["newest"] as Int64?) ?? 0, row?["oldest"] as Int64?)
    }

    /// Removes the events stored before `cutoff`; answers how many.
    func prune(before cutoff: Int64) throws -> Int {
        try db.execute("DELETE FROM event WHERE createdAt < ?", [cutoff])
    }
}
