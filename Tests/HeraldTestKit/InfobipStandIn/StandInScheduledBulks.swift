import Foundation

/// Scheduled bulks in the stand-in's state: held until their `sendAt` by the stand-in's clock, then handed to the
/// network whole; paused, resumed, moved or cancelled meanwhile. Each change is one step of the actor, so a cancel that
/// races the end of the hold finds the bulk either still held (none of it leaves) or gone (all of it left).
extension StandInState {
    /// What a change to a scheduled bulk came to.
    enum BulkChange: Sendable {
        /// Done (or already so): the bulk as it now stands.
        case done(ScheduledBulk)
        /// No scheduled bulk has this id (or, for a move, none is held under it).
        case unknown
        /// Not possible in the bulk's state; why.
        case refused(String)
    }

    /// The status a bulk is shown with: PROCESSING for `bulkProcessingTime` after it left, then FINISHED.
    func shownStatus(_ bulk: ScheduledBulk) -> BulkStatus {
        guard bulk.state == .finished, let left = bulk.leftAt else { return bulk.state }
        return now().timeIntervalSince(left) < bulkProcessingTime ? .processing : .finished
    }

    /// A scheduled bulk by id.
    public func scheduledBulk(_ bulkId: String) -> ScheduledBulk? { scheduledBulks[bulkId] }

    /// Records `messages` as accepted and held in the scheduled bulk `bulkId` until `sendAt`: a new bulk, or one still held
    /// for the same time (a large send comes in several requests under one id). Nil when done; else why not, and nothing
    /// is recorded.
    func hold(_ messages: [Sent], bulkId: String, sendAt: Date) -> String? {
        if let bulk = scheduledBulks[bulkId] {
            guard bulk.state == .pending || bulk.state == .paused else {
                return "bulk \(bulkId) was already \(shownStatus(bulk).rawValue); use another bulkId"
            }
            guard bulk.sendAt == sendAt else {
                return "bulk \(bulkId) is already scheduled for \(StandInRoutes.sendAtText(bulk.sendAt)); use another bulkId"
            }
        }
        var bulk = scheduledBulks[bulkId]
            ?? ScheduledBulk(bulkId: bulkId, sendAt: sendAt, state: .pending, messageIds: [], leftAt: nil, canceledAt: nil)
        for var message in messages {
            message.stage = .held
            record(message)
            bulk.messageIds.append(message.messageId)
        }
        scheduledBulks[bulkId] = bulk
        return nil
    }

    /// Takes every held bulk whose time has come (not a paused one): all its messages are handed over now, once, and
    /// returned so that their reports follow.
    func takeDue() -> [Sent] {
        guard !scheduledBulks.isEmpty else { return [] }
        let current = now()
        var taken: [Sent] = []
        for (id, bulk) in scheduledBulks.sorted(by: { $0.value.sendAt < $1.value.sendAt })
        where bulk.state == .pending && bulk.sendAt <= current {
            scheduledBulks[id]?.state = .finished
            scheduledBulks[id]?.leftAt = current
            for messageId in bulk.messageIds {
                guard var message = sent[messageId], message.stage == .held else { continue }
                message.stage = .handedOver
                message.sentAt = current
                sent[messageId] = message
                taken.append(message)
            }
            noteInSentLog("bulk-left \(id) \(bulk.messageIds.count)")
        }
        return taken
    }

    /// Moves a held bulk to `sendAt`. A bulk that left or was cancelled is no longer held: unknown.
    func reschedule(_ bulkId: String, to sendAt: Date) -> BulkChange {
        guard let bulk = scheduledBulks[bulkId], bulk.state == .pending || bulk.state == .paused else { return .unknown }
        guard bulk.state == .pending else { return .refused("bulk \(bulkId) is PAUSED: only a PENDING bulk can be rescheduled") }
        scheduledBulks[bulkId]?.sendAt = sendAt
        noteInSentLog("bulk-rescheduled \(bulkId) \(StandInRoutes.sendAtText(sendAt))")
        return .done(scheduledBulks[bulkId] ?? bulk)
    }

    /// Sets a bulk's status: PAUSED holds a PENDING bulk (even past its time), PROCESSING resumes a PAUSED one (it
    /// leaves at once when its time has passed, at its time otherwise), CANCELED takes back a held one, all of it.
    /// Asking for the status it has changes nothing; a bulk that left or was cancelled changes no more.
    func setBulkStatus(_ bulkId: String, to target: BulkStatus) -> BulkChange {
        guard let bulk = scheduledBulks[bulkId] else { return .unknown }
        let shown = shownStatus(bulk)
        if shown == target { return .done(bulk) }
        switch (bulk.state, target) {
        case (.pending, .paused):
            scheduledBulks[bulkId]?.state = .paused
            noteInSentLog("bulk-paused \(bulkId)")
        case (.paused, .processing):
            scheduledBulks[bulkId]?.state = .pending
            noteInSentLog("bulk-resumed \(bulkId)")
        case (.pending, .canceled), (.paused, .canceled):
            scheduledBulks[bulkId]?.state = .canceled
            scheduledBulks[bulkId]?.canceledAt = now()
            for messageId in bulk.messageIds where sent[messageId]?.stage == .held { sent[messageId]?.stage = .canceled }
            noteInSentLog("bulk-canceled \(bulkId) \(bulk.messageIds.count)")
        default:
            return .refused("bulk \(bulkId) is \(shown.rawValue): its status cannot be changed to \(target.rawValue)")
        }
        return .done(scheduledBulks[bulkId] ?? bulk)
    }

    /// Whether this caller is to start the task that releases due bulks (none runs yet, and a server runs).
    func claimTicker() -> Bool {
        guard !tickerRunning, serving > 0 else { return false }
        tickerRunning = true
        return true
    }

    /// Seconds until the next held bulk is due (0: one is); nil when none is held or no server runs, and the task
    /// that asked ends (the next scheduled bulk starts another).
    func nextDue() -> TimeInterval? {
        let next = scheduledBulks.values.filter { $0.state == .pending }.map(\.sendAt).min()
        guard let next, serving > 0 else {
            tickerRunning = false
            return nil
        }
        return max(0, next.timeIntervalSince(now()))
    }

    /// A server runs on this state: held bulks leave at their time.
    func serverStarted() { serving += 1 }

    /// A server stopped: with none left, nothing more leaves by itself (a request to a later server releases what is due).
    func serverStopped() { serving = max(0, serving - 1) }
}
