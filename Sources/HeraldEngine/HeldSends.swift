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
        return try await store.read { db in try !db.holds.isEmailBulk(bulkId) }
    }

    // MARK: - Routes

    /// A held bulk: where it stands, moved, taken back.
    static let heldSendRoutes: [EngineRoute] = [
        EngineRoute(GetBulkSchedule.self, .read) { engine, call in try await engine.bulkSchedule(call) },
        EngineRoute(RescheduleBulk.self, .send) { engine, call in try await engine.rescheduleBulk(call) },
        EngineRoute(CancelBulk.self, .send) { engine, call in try await engine.cancelBulk(call) },
    ]

    nonisolated func bulkSchedule(_ call: EngineCall<GetBulkSchedule>) async throws -> BulkSchedule {
        let (app, bulkId) = (call.app, call.path.bulkId)
        let at = nowMs
        return try await store.read { db in try Self.schedule(db, app: app, bulkId: bulkId, now: at) }
    }

    nonisolated func rescheduleBulk(_ call: EngineCall<RescheduleBulk>) async throws -> BulkSchedule {
        let (app, bulkId, body) = (call.app, call.path.bulkId, call.body)
        var input = WireInput()
        let sendAt = Self.sendTime(body.sendAt, field: "sendAt", now: now, input: &input)
        try input.check("invalid schedule")
        guard let sendAt else { throw APIError.badRequest("invalid schedule", validationErrors: ["sendAt": ["required"]]) }
        let at = nowMs
        let actor = auditActor(call.request)
        if try await carrierHolds(bulkId: bulkId) {
            let before = try await store.read { db in try Self.schedule(db, app: app, bulkId: bulkId, now: at) }
            guard before.held > 0 else { return before }
            do { try await carrier.reschedule(bulkId: bulkId, to: sendAt) } catch {
                throw APIError.server(status: 502, text: "the carrier did not move bulk \(bulkId): \(Self.failureText(error))")
            }
        }
        let answer = try await store.write { [self] db -> BulkSchedule in
            _ = try Self.schedule(db, app: app, bulkId: bulkId, now: at)   // 404 for a bulk that is not the application's
            let held = try db.holds.held(bulkId: bulkId, now: at)
            if !held.isEmpty {
                try db.holds.move(bulkId: bulkId, to: sendAt.epochMilliseconds, now: at)
                let moved = held.map { m -> DeliveryInfo in
                    var info = m.deliveryInfo
                    info.sendAt = WireTime.text(sendAt)
                    return info
                }
                try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: moved, isDelta: true))
                try db.audit.append(AuditRecord(applicationKey: app.key, at: at, actor: actor, action: .move, bulkId: bulkId,
                                                what: "moved to \(Self.auditTime(sendAt)) (\(Self.recipients(held.count)) held)"))
            }
            return try Self.schedule(db, app: app, bulkId: bulkId, now: at)
        }
        bell.ring()
        return answer
    }

    /// Takes back every held message of a bulk in one unit of work: a message released meanwhile has left and is
    /// counted so; the answer says both.
    nonisolated func cancelBulk(_ call: EngineCall<CancelBulk>) async throws -> BulkSchedule {
        let (app, bulkId, body) = (call.app, call.path.bulkId, call.body)
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
            guard before.held > 0 else { return before }
            let takenBack: Bool
            do { takenBack = try await carrier.cancel(bulkId: bulkId) } catch {
                throw APIError.server(status: 502, text: "the carrier did not take back bulk \(bulkId): \(Self.failureText(error))")
            }
            // Too late: it left whole; its reports tell the rest.
            guard takenBack else {
                return BulkSchedule(bulkId: bulkId, sendAt: nil, held: 0, left: before.held + before.left, cancelled: before.cancelled)
            }
            heldAfter = Int64.min
        }
        let bound = heldAfter
        let stamp = nowMs
        let actor = auditActor(call.request)
        let answer = try await store.write { [self] db -> BulkSchedule in
            let before = try Self.schedule(db, app: app, bulkId: bulkId, now: stamp)
            let held = try db.holds.held(bulkId: bulkId, now: bound)
            if !held.isEmpty {
                try db.holds.cancel(bulkId: bulkId, heldAt: bound, stamp: stamp)
                let cancelled = held.map { m -> DeliveryInfo in
                    var info = m.deliveryInfo
                    info.deliveryStatus = .cancelled
                    info.sendAt = nil
                    return info
                }
                try appendEvent(db, applicationKey: app.key, .deliveryChanged(bulkId: bulkId, deliveryInfo: cancelled, isDelta: true))
                // Taken back whole (none of it had left), or cancelled with part of it gone already.
                let whole = before.left == 0
                let what = "took back \(Self.recipients(held.count))" + (whole ? "; none had left" : "; \(before.left) had left")
                try db.audit.append(AuditRecord(applicationKey: app.key, at: stamp, actor: actor, action: whole ? .takeBack : .cancel,
                                                bulkId: bulkId, what: what))
            }
            return try Self.schedule(db, app: app, bulkId: bulkId, now: stamp)
        }
        bell.ring()
        return answer
    }

    /// Where an application's bulk stands; 404 when it has no such bulk.
    private static func schedule(_ db: any EngineSQL, app: ApplicationRecord, bulkId: String, now: Int64) throws -> BulkSchedule {
        guard let schedule = try db.holds.schedule(applicationKey: app.key, bulkId: bulkId, now: now) else {
            throw APIError.notFound(GetDeliveryInfos.unknownBulkText)
        }
        return schedule
    }
}
