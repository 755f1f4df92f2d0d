import Foundation
import HeraldAPI
import HeraldCore

/// Sends held until their time (`sent` rows with `outbox` 3, or `Scheduled` with a carrier that holds them): where a
/// bulk stands, released, moved, taken back.
struct HoldRepository {
    let db: any EngineSQL

    /// A message still held (one `?`: now, in epoch ms): by the engine (`outbox` 3), or handed to a carrier that holds
    /// it until a time still ahead.
    private static let isHeld = "(outbox = 3 OR (outbox = 0 AND status = 'Scheduled' AND notBefore > ?))"

    /// Whether `bulkId` is an email bulk (one with a subject): the engine holds those whatever the carrier does.
    func isEmailBulk(_ bulkId: String) throws -> Bool {
        try db.value(String.self, "SELECT subject FROM bulk WHERE id = ?", [bulkId]) != nil
    }

    /// Moves held messages whose time has come to the outbox (all of one time in one statement).
    func releaseDue(at: Int64) throws {
        try db.execute("UPDATE sent SET outbox = 1 WHERE outbox = 3 AND notBefore <= ?", [at])
    }

    /// The messages of `bulkId` held at `now` (`Int64.min`: every one a carrier holds, whatever its time).
    func held(bulkId: String, now: Int64) throws -> [SentMessage] {
        try db.rows("SELECT * FROM sent WHERE bulkId = ? AND \(Self.isHeld)", [bulkId, now]).map(SentMessage.init)
    }

    /// Moves the held messages of `bulkId` to `sendAt`; a message the carrier holds is asked about as long after its
    /// new time as after its old one.
    func move(bulkId: String, to sendAt: Int64, now: Int64) throws {
        try db.execute("""
            UPDATE sent SET nextCheckAt = CASE WHEN nextCheckAt IS NULL OR notBefore IS NULL THEN nextCheckAt
                                               ELSE nextCheckAt - notBefore + ? END,
                            notBefore = ?, statusAt = ?
            WHERE bulkId = ? AND \(Self.isHeld)
            """, [sendAt, sendAt, now, bulkId, now])
    }

    /// Takes back the messages of `bulkId` held at `heldAt` (as `held(bulkId:now:)`): cancelled at `stamp`.
    func cancel(bulkId: String, heldAt: Int64, stamp: Int64) throws {
        try db.execute("""
            UPDATE sent SET outbox = 0, status = ?, statusAt = ?, nextCheckAt = NULL, reason = ?
            WHERE bulkId = ? AND \(Self.isHeld)
            """, [DeliveryStatus.cancelled.rawValue, stamp, "taken back before it left", bulkId, heldAt])
    }

    /// Where an application's bulk stands at `now`; nil when it has no such bulk.
    func schedule(applicationKey: String, bulkId: String, now: Int64) throws -> BulkSchedule? {
        guard try db.bulks.exists(bulkId, applicationKey: applicationKey) else { return nil }
        let isHeld = Self.isHeld
        let row = try db.row("""
            SELECT SUM(CASE WHEN \(isHeld) THEN 1 ELSE 0 END) AS held,
                   SUM(CASE WHEN status = ? THEN 1 ELSE 0 END) AS cancelled,
                   SUM(CASE WHEN NOT \(isHeld) AND status <> ? THEN 1 ELSE 0 END) AS departed,
                   MIN(CASE WHEN \(isHeld) THEN notBefore END) AS sendAt
            FROM sent WHERE bulkId = ? AND accepted = 1
            """, [now, DeliveryStatus.cancelled.rawValue, now, DeliveryStatus.cancelled.rawValue, now, bulkId])
        let held = row.flatMap { $0["held"] as Int64? } ?? 0
        let cancelled = row.flatMap { $0["cancelled"] as Int64? } ?? 0
        let departed = row.flatMap { $0["departed"] as Int64? } ?? 0
        let sendAt = row.flatMap { $0["sendAt"] as Int64? }.map { WireTime.text(Date(epochMilliseconds: $0)) }
        return BulkSchedule(bulkId: bulkId, sendAt: sendAt, held: Int(held), left: Int(departed), cancelled: Int(cancelled))
    }
}
