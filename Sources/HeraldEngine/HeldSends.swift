import Foundation
import HeraldAPI
import HeraldCore

/// Sends held until their time (the undo window, a scheduled send, a recipient's quiet hours). The engine holds them
/// itself as `outbox` 3 with `notBefore`, released to the outbox in one statement when due, so a bulk held as one
/// leaves whole; or, with a carrier that holds scheduled messages itself (Infobip's `sendAt`), they are handed over at
/// once and stay `Scheduled` there, taken back or moved through the carrier. Either way the hold lives in a database
/// (the engine's or the carrier's), not in a timer: it outlasts the process.
extension PlatformEngine {
    /// How far ahead a send may be held (Infobip's limit for `sendAt`).
    public static let maxHold: TimeInterval = 180 * 24 * 3600
    /// A time this little in the past is a clock a little behind, sent now; earlier is refused.
    static let pastTolerance: TimeInterval = 60

    /// The instant of a `sendAt` field, checked: a wire time, not before now (less the tolerance), at most 180 days
    /// ahead. Problems go to `input`; nil when absent or wrong.
    static func sendTime(_ text: String?, field: String, now: Date, input: inout WireInput) -> Date? {
        guard let text else { return nil }
        guard text.utf8.count <= 40, let date = WireTime.date(text) else {
            input.refuse(field, "not a time: write it as 2026-12-01T08:00:00.000Z")
            return nil
        }
        if date < now.addingTimeInterval(-pastTolerance) {
            input.refuse(field, "\(text) is in the past")
            return nil
        }
        if date > now.addingTimeInterval(maxHold) {
            input.refuse(field, "\(text) is more than 180 days ahead")
            return nil
        }
        return date
    }

    /// Whether the carrier holds this bulk's messages itself (Infobip's scheduled SMS); an email bulk is held here.
    nonisolated func carrierHolds(bulkId: String) async throws -> Bool {
        guard carrier.holdsScheduled else { return false }
        return try await store.read { db in
            try db.value(String.self, "SELECT subject FROM bulk WHERE id = ?", [bulkId]) == nil
        }
    }

    /// Moves held messages whose time has come to the outbox (all of one time in one statement).
    nonisolated func releaseDue(_ db: any EngineSQL, at: Int64) throws {
        try db.execute("UPDATE sent SET outbox = 1 WHERE outbox = 3 AND notBefore <= ?", [at])
    }

    // MARK: - Routes

    nonisolated func bulkSchedule(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request)
        let bulkId = p["bulkId"] ?? ""
        let at = nowMs
        return try Self.json(try await store.read { db in try Self.schedule(db, app: app, bulkId: bulkId, now: at) })
    }

    nonisolated func rescheduleBulk(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request)
        let bulkId = p["bulkId"] ?? ""
        let body = try decodeBody(request, as: BulkRescheduleBody.self)
        var input = WireInput()
        let sendAt = Self.sendTime(body.sendAt, field: "sendAt", now: now, input: &input)
        try input.check("invalid schedule")
        guard let sendAt else { throw APIError.badRequest("invalid schedule", validationErrors: ["sendAt": ["required"]]) }
        let at = nowMs
        if try await carrierHolds(bulkId: bulkId) {
            let before = try await store.read { db in try Self.schedule(db, app: app, bulkId: bulkId, now: at) }
            guard before.held > 0 else { return try Self.json(before) }
            do { try await carrier.reschedule(bulkId: bulkId, to: sendAt) } catch {
                throw APIError.server(status: 502, text: "the carrier did not move bulk \(bulkId): \(Self.failureText(error))")
            }
        }
        let answer = try await store.write { [self] db -> BulkSchedule in
            _ = try Self.schedule(db, app: app, bulkId: bulkId, now: at)   // 404 for a bulk that is not the application's
            let held = try db.rows("SELECT * FROM sent WHERE bulkId = ? AND \(Self.isHeld)", [bulkId, at]).map(SentMessage.init)
            if !held.isEmpty {
                // A message the carrier holds is asked about as long after its new time as after its old one.
                try db.execute("""
                    UPDATE sent SET nextCheckAt = CASE WHEN nextCheckAt IS NULL OR notBefore IS NULL THEN nextCheckAt
                                                       ELSE nextCheckAt - notBefore + ? END,
                                    notBefore = ?, statusAt = ?
                    WHERE bulkId = ? AND \(Self.isHeld)
                    """, [sendAt.epochMilliseconds, sendAt.epochMilliseconds, at, bulkId, at])
                let moved = held.map { m -> DeliveryInfo in
                    var info = m.deliveryInfo
                    info.sendAt = WireTime.text(sendAt)
                    return info
                }
                try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: moved, isDelta: true))
            }
            return try Self.schedule(db, app: app, bulkId: bulkId, now: at)
        }
        bell.ring()
        return try Self.json(answer)
    }

    /// Takes back every held message of a bulk in one unit of work: a message released meanwhile has left and is
    /// counted so; the answer says both.
    nonisolated func cancelBulk(_ request: APIRequest, _ p: [String: String]) async throws -> APIResponse {
        let app = try await authenticateSecret(request)
        let bulkId = p["bulkId"] ?? ""
        let body = try decodeBody(request, as: BulkStatusBody.self)
        guard body.status == BulkStatusBody.canceled else {
            throw APIError.badRequest("unknown status \(body.status.prefix(40))",
                                      validationErrors: ["status": ["the one change a client may ask for is CANCELED"]])
        }
        // Held means held now (its time still ahead); once the carrier took the bulk back, every message it held is.
        var heldAfter = nowMs
        if try await carrierHolds(bulkId: bulkId) {
            // What is still in the outbox goes to the carrier first, so it holds the whole bulk when asked.
            _ = try await drainOutbox(bulkId: bulkId)
            let asked = nowMs
            let before = try await store.read { db in try Self.schedule(db, app: app, bulkId: bulkId, now: asked) }
            guard before.held > 0 else { return try Self.json(before) }
            let takenBack: Bool
            do { takenBack = try await carrier.cancel(bulkId: bulkId) } catch {
                throw APIError.server(status: 502, text: "the carrier did not take back bulk \(bulkId): \(Self.failureText(error))")
            }
            // Too late: it left whole; its reports tell the rest.
            guard takenBack else {
                return try Self.json(BulkSchedule(bulkId: bulkId, sendAt: nil, held: 0, left: before.held + before.left,
                                                  cancelled: before.cancelled))
            }
            heldAfter = Int64.min
        }
        let bound = heldAfter
        let stamp = nowMs
        let answer = try await store.write { [self] db -> BulkSchedule in
            _ = try Self.schedule(db, app: app, bulkId: bulkId, now: stamp)
            let held = try db.rows("SELECT * FROM sent WHERE bulkId = ? AND \(Self.isHeld)", [bulkId, bound]).map(SentMessage.init)
            if !held.isEmpty {
                try db.execute("""
                    UPDATE sent SET outbox = 0, status = ?, statusAt = ?, nextCheckAt = NULL, reason = ?
                    WHERE bulkId = ? AND \(Self.isHeld)
                    """, [DeliveryStatus.cancelled.rawValue, stamp, "taken back before it left", bulkId, bound])
                let cancelled = held.map { m -> DeliveryInfo in
                    var info = m.deliveryInfo
                    info.deliveryStatus = .cancelled
                    info.sendAt = nil
                    return info
                }
                try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: cancelled, isDelta: true))
            }
            return try Self.schedule(db, app: app, bulkId: bulkId, now: stamp)
        }
        bell.ring()
        return try Self.json(answer)
    }

    /// A message still held (one `?`: now, in epoch ms): by the engine (`outbox` 3), or handed to a carrier that holds
    /// it until a time still ahead.
    static let isHeld = "(outbox = 3 OR (outbox = 0 AND status = 'Scheduled' AND notBefore > ?))"

    /// Where an application's bulk stands; 404 when it has no such bulk.
    private static func schedule(_ db: any EngineSQL, app: ApplicationRecord, bulkId: String, now: Int64) throws -> BulkSchedule {
        guard try db.row("SELECT 1 FROM bulk WHERE id = ? AND applicationKey = ?", [bulkId, app.key]) != nil else {
            throw APIError.notFound(GetDeliveryInfos.unknownBulkText)
        }
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
