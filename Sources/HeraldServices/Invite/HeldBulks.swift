import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore

/// What taking back or moving a held bulk did, in words for people.
public struct HeldBulkAnswer: Sendable, Hashable {
    public var bulkId: String
    /// Messages the platform still holds, and until when.
    public var held: Int
    public var sendAt: Date?
    /// Messages that had left (or leave now) and cannot be taken back.
    public var left: Int
    public var cancelled: Int

    init(_ schedule: BulkSchedule) {
        bulkId = schedule.bulkId
        held = schedule.held
        sendAt = schedule.sendAt.flatMap(WireTime.date)
        left = schedule.left
        cancelled = schedule.cancelled
    }

    /// "taken back: 3 invitations, nothing left" / "too late: 3 invitations had left".
    public var summary: String {
        if left == 0 { return "taken back: \(counted(cancelled, "invitation")); nothing was sent" }
        if cancelled == 0 { return "too late: \(counted(left, "invitation")) had already left; nothing was taken back" }
        return "taken back: \(counted(cancelled, "invitation")); \(counted(left, "invitation")) had already left"
    }
}

/// Why a held bulk could not be taken back or moved.
public enum HeldBulkError: Error, Sendable, Hashable, UserFacingError {
    case invalidTime(String)
    case nothingHeld(bulkId: String, left: Int, cancelled: Int)
    case platform(String)

    public var userMessage: String {
        switch self {
        case .invalidTime(let why): return why
        case .nothingHeld(let bulk, let left, let cancelled):
            let state = cancelled > 0 && left == 0 ? "it was taken back" : "\(counted(left, "invitation")) had already left"
            return "bulk \(bulk) holds nothing to move: \(state)"
        case .platform(let why): return why
        }
    }
}

extension InviteService {
    /// Takes back what the platform still holds of a bulk (the undo window, a scheduled send): in one unit on the
    /// platform, so a bulk held as one leaves whole or not at all; the answer says which. The ledger learns the
    /// cancelled rows at once.
    public func cancel(bulkId: String) async throws -> HeldBulkAnswer {
        if let readOnlyReason { throw HeldBulkError.platform("\(readOnlyReason): bulk \(bulkId) was not taken back") }
        let schedule: BulkSchedule
        do { schedule = try await platform.cancelBulk(bulkId: bulkId) } catch {
            throw HeldBulkError.platform("cannot take back bulk \(bulkId): \(Self.why(error))")
        }
        await learnStatuses(bulkId: bulkId)
        return HeldBulkAnswer(schedule)
    }

    /// Moves what the platform still holds of a bulk to `sendAt` (checked: not past, at most 180 days ahead).
    public func reschedule(bulkId: String, to sendAt: Date) async throws -> HeldBulkAnswer {
        if let readOnlyReason { throw HeldBulkError.platform("\(readOnlyReason): bulk \(bulkId) was not moved") }
        let now = clock.now()
        do { _ = try SendTime.check(sendAt, text: WireTime.text(sendAt), now: now, timeZone: .current) } catch {
            throw HeldBulkError.invalidTime(error.description)
        }
        let before: BulkSchedule
        do { before = try await platform.bulkSchedule(bulkId: bulkId) } catch {
            throw HeldBulkError.platform("cannot read bulk \(bulkId): \(Self.why(error))")
        }
        guard before.held > 0 else { throw HeldBulkError.nothingHeld(bulkId: bulkId, left: before.left, cancelled: before.cancelled) }
        let schedule: BulkSchedule
        do { schedule = try await platform.rescheduleBulk(bulkId: bulkId, sendAt: sendAt) } catch {
            throw HeldBulkError.platform("cannot move bulk \(bulkId): \(Self.why(error))")
        }
        if try ledger.bulk(id: bulkId) != nil {
            try ledger.reschedule(bulkId: bulkId, sendAt: sendAt, nextPollAt: sendAt.addingTimeInterval(1))
        }
        await learnStatuses(bulkId: bulkId)
        return HeldBulkAnswer(schedule)
    }

    /// Where a held bulk stands on the platform.
    public func schedule(bulkId: String) async throws -> HeldBulkAnswer {
        do { return HeldBulkAnswer(try await platform.bulkSchedule(bulkId: bulkId)) } catch {
            throw HeldBulkError.platform("cannot read bulk \(bulkId): \(Self.why(error))")
        }
    }

    /// A platform's refusal in words; an unknown bulk says where to find the ids.
    private static func why(_ error: APIError) -> String {
        if case .notFound = error { return "the platform has no such bulk (see `herald bulks list`)" }
        return error.description
    }

    /// Reads a bulk's statuses and stores them (a colleague's bulk is stored too), so every screen shows the change;
    /// a failed read is left to the tracker's next pass.
    private func learnStatuses(bulkId: String) async {
        do {
            let infos = try await platform.deliveryInfos(bulkId: bulkId)
            if try ledger.bulk(id: bulkId) != nil {
                _ = try ledger.applyDeliveryInfos(bulkId: bulkId, infos.map(DeliveryUpdate.init))
            } else {
                _ = try ledger.recordTeamBulk(bulkId: bulkId, createdAt: clock.now(), messageText: nil, infos.map(DeliveryUpdate.init))
            }
        } catch {
            bus.publish(.toast(level: .warning, text: "bulk \(bulkId) changed; its statuses are read again at the next pass (\(userMessage(for: error)))"))
        }
    }
}
