import Foundation
import HeraldLocks
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// The workspace's one background polling queue for delivery states, per bulk (not per person).
///
/// The schedule lives in the ledger (`passes_done`, `next_poll_ms`), so it survives a restart and is
/// shared with other Herald processes on the same data directory: the ledger is read again every
/// `rescanInterval` (a single query) and bulks another process wrote are picked up; a due bulk is
/// re-read just before polling and skipped when another process already polled it.
///
/// Tests drive it with a `ManualClock` and `tick()` / `runDuePasses()`; `run()` is the real loop,
/// which sleeps until the next due time (or the next rescan).
public actor DeliveryTracker {
    private let platform: any MessagingPlatform
    private let ledger: LedgerStore
    private let bus: EventBus
    private let clock: any HeraldClock
    public let settings: TrackerSettings

    private struct Entry {
        var record: BulkRecord
        /// Last known status of each recipient row, by invitation id.
        var statuses: [Int64: DeliveryStatus]
        var rows: [Int64: InvitationInfo]
    }

    private var entries: [String: Entry] = [:]
    private var backoffUntil: Date?
    private var consecutiveErrors = 0
    private var lastScan: Date?
    /// The ledger's change sequence at the last scan.
    private var scannedVersion: Int64?
    private let log = Logger(label: "herald.tracker")
    private let wakeSignal = WakeSignal()
    /// Platform calls made since the tracker was created.
    public private(set) var platformCalls = 0

    public init(platform: any MessagingPlatform, ledger: LedgerStore, bus: EventBus, clock: any HeraldClock = SystemClock(),
                settings: TrackerSettings = .default) {
        self.platform = platform
        self.ledger = ledger
        self.bus = bus
        self.clock = clock
        self.settings = settings
    }

    // MARK: schedule

    /// When a bulk's next pass is due, from its ledger record; nil when it has no more passes.
    nonisolated func dueDate(of record: BulkRecord) -> Date? {
        if record.passesDone == 0 { return record.nextPollAt ?? record.createdAt.addingTimeInterval(settings.interval) }
        return record.nextPollAt
    }

    /// The next poll time after a pass that left `pending` recipients, `passesDone` passes made.
    nonisolated func nextPoll(after now: Date, passesDone: Int, pending: [DeliveryStatus]) -> Date? {
        guard !pending.isEmpty else { return nil }
        if pending.allSatisfy({ $0 == .deliveredToNetwork }) {
            guard passesDone < settings.passes + settings.followUpPasses else { return nil }
            return now.addingTimeInterval(settings.interval * settings.followUpFactor)
        }
        guard passesDone < settings.passes else { return nil }
        return now.addingTimeInterval(settings.interval)
    }

    /// Bulks being watched, soonest first (those with no more passes last).
    public func trackedBulks() -> [TrackedBulk] {
        entries.values.map { entry in
            let pending = entry.statuses.values.filter { !$0.isFinal }
            let onlyAtNetwork = !pending.isEmpty && pending.allSatisfy { $0 == .deliveredToNetwork }
            let limit = onlyAtNetwork ? settings.passes + settings.followUpPasses : settings.passes
            let due = dueDate(of: entry.record)
            return TrackedBulk(bulkId: entry.record.bulkId, dueAt: due, passesDone: entry.record.passesDone,
                               passesLeft: due == nil ? 0 : max(0, limit - entry.record.passesDone),
                               pendingRecipients: entry.statuses.values.filter { $0.state == .pending }.count,
                               onlyAtNetwork: onlyAtNetwork)
        }.sorted { a, b in
            switch (a.dueAt, b.dueAt) {
            case let (x?, y?): return x != y ? x < y : a.bulkId < b.bulkId
            case (nil, nil): return a.bulkId < b.bulkId
            case (nil, _): return false
            case (_, nil): return true
            }
        }
    }

    /// When the next pass is due (a backoff included); nil when nothing is scheduled.
    public func nextDueDate() -> Date? {
        guard let due = entries.values.compactMap({ dueDate(of: $0.record) }).min() else { return nil }
        if let backoffUntil, backoffUntil > due { return backoffUntil }
        return due
    }

    /// Whether a bulk has no more passes coming (every recipient final, or its passes spent).
    public func isSettled(bulkId: String) -> Bool {
        guard let entry = entries[bulkId] else { return true }
        return dueDate(of: entry.record) == nil
    }

    /// The schedule as an event payload.
    public func state() -> TrackerState {
        let bulks = trackedBulks().filter { $0.dueAt != nil }
            .map { TrackerState.Bulk(bulkId: $0.bulkId, passesLeft: $0.passesLeft, pendingRecipients: $0.pendingRecipients) }
        let until = backoffUntil.flatMap { $0 > clock.now() ? $0 : nil }
        var queued = 0
        do { queued = try ledger.queuedCount() } catch { logFailure("could not count the queued invitations", error) }
        return TrackerState(nextPassAt: nextDueDate(), bulks: bulks, backingOffUntil: until, queuedRecipients: queued)
    }

    // MARK: driving

    /// Reads the ledger again when `rescanInterval` has passed, then runs every due pass.
    @discardableResult
    public func tick() async -> TrackerPassReport {
        let now = clock.now()
        if lastScan.map({ now.timeIntervalSince($0) >= settings.rescanInterval }) ?? true {
            refresh()
        }
        return await runDuePasses()
    }

    /// Reads the bulks with non-final recipients from the ledger (one query), picks up new ones
    /// (published as `bulksDiscovered`), and reloads bulks another process polled (publishing the
    /// changes it saw). Bulks that became final are dropped.
    public func refresh() {
        let now = clock.now()
        lastScan = now
        // The change feed's counter: when no process wrote the ledger since the last scan, there is
        // nothing to read again.
        let version: Int64
        do { version = try ledger.version().ledger } catch { logFailure("could not read the ledger's version", error); return }
        if version == scannedVersion { return }
        let records: [BulkRecord]
        do { records = try ledger.bulksWithPendingRecipients() } catch { logFailure("could not read the pending bulks", error); return }
        scannedVersion = version
        var live = Set<String>()
        var discovered: [String] = []
        var changes: [DeliveryChange] = []
        for record in records {
            // A bulk whose passes are spent is never polled again: its rows need not be held.
            if record.passesDone > 0 && record.nextPollAt == nil && entries[record.bulkId] == nil { continue }
            live.insert(record.bulkId)
            if let known = entries[record.bulkId] {
                if known.record.passesDone != record.passesDone || known.record.lastPolledAt != record.lastPolledAt
                    || known.record.recipientCount != record.recipientCount {
                    changes += reload(record, at: now)
                } else {
                    entries[record.bulkId]?.record = record
                }
            } else {
                discovered.append(record.bulkId)
                _ = reload(record, at: now)
            }
        }
        for id in entries.keys where !live.contains(id) {
            // Became final (here or in another process): publish what changed since we last looked.
            do {
                if let record = try ledger.bulk(id: id) { changes += reload(record, at: now) }
                entries.removeValue(forKey: id)
            } catch {
                logFailure("could not read bulk \(id)", error)
                scannedVersion = nil    // read it again at the next scan
            }
        }
        // What changed reaches screens through the change feed; the tracker only says where its schedule stands.
        if !discovered.isEmpty || !changes.isEmpty { bus.publish(.trackerState(state())) }
    }

    /// Starts watching a bulk now (after a send), without waiting for the next rescan.
    public func track(bulkId: String) {
        let found: BulkRecord?
        do { found = try ledger.bulk(id: bulkId) } catch { logFailure("could not read bulk \(bulkId)", error); return }
        guard let record = found else { return }
        let isNew = entries[bulkId] == nil
        _ = reload(record, at: clock.now())
        if isNew { bus.publish(.trackerState(state())) }
    }

    /// Polls every bulk whose pass is due (exactly one delivery-infos call each), applies the
    /// answers to the ledger, publishes `deliveryChanged` for each change and the new `trackerState`.
    /// Stops at the first retryable error and backs off (honouring `Retry-After`).
    @discardableResult
    public func runDuePasses() async -> TrackerPassReport {
        var report = TrackerPassReport()
        let now = clock.now()
        if let until = backoffUntil, until > now {
            report.backingOffUntil = until
            return report
        }
        backoffUntil = nil
        var due: [(id: String, at: Date)] = []
        for entry in entries.values {
            if let at = dueDate(of: entry.record), at <= now { due.append((entry.record.bulkId, at)) }
        }
        due.sort { a, b in a.at != b.at ? a.at < b.at : a.id < b.id }
        guard !due.isEmpty else { return report }
        passes: for (bulkId, _) in due {
            // Another process may have polled it since the last scan.
            let fresh: BulkRecord?
            do { fresh = try ledger.bulk(id: bulkId) } catch { logFailure("could not read bulk \(bulkId)", error); fresh = nil }
            if let fresh {
                if fresh.passesDone != entries[bulkId]?.record.passesDone {
                    report.changes += reload(fresh, at: now)
                    if let d = dueDate(of: fresh), d > now { continue }
                    if dueDate(of: fresh) == nil { continue }
                }
            }
            platformCalls += 1
            report.platformCalls += 1
            let result: Result<[DeliveryInfo], APIError>
            do { result = .success(try await platform.deliveryInfos(bulkId: bulkId)) } catch { result = .failure(error) }
            switch result {
            case .success(let infos):
                do {
                    report.changes += try apply(infos, bulkId: bulkId, at: clock.now())
                    consecutiveErrors = 0
                    report.polled.append(bulkId)
                } catch {
                    // Not written: the pass is not spent, and the same infos are asked for again.
                    logFailure("could not store the delivery infos of bulk \(bulkId)", error)
                    report.failures[bulkId] = "could not store the delivery infos: \(error)"
                    consecutiveErrors += 1
                    backoffUntil = clock.now().addingTimeInterval(settings.backoff(afterErrors: consecutiveErrors))
                    report.backingOffUntil = backoffUntil
                    break passes
                }
            case .failure(let error):
                report.failures[bulkId] = error.description
                if case .tooManyRequests(let after) = error {
                    consecutiveErrors += 1
                    backoffUntil = clock.now().addingTimeInterval(after ?? settings.backoff(afterErrors: consecutiveErrors))
                } else if error.isRetryable {
                    consecutiveErrors += 1
                    backoffUntil = clock.now().addingTimeInterval(settings.backoff(afterErrors: consecutiveErrors))
                } else {
                    // Not worth retrying soon (unknown bulk, refused key): spend the pass and tell the person.
                    report.polled.append(bulkId)
                    spendPass(bulkId: bulkId, at: clock.now())
                    bus.publish(.toast(level: .warning, text: "delivery of bulk \(bulkId): \(error.description)"))
                }
                if backoffUntil != nil {
                    report.backingOffUntil = backoffUntil
                    break passes
                }
            }
        }
        bus.publish(.trackerState(state()))
        return report
    }

    /// The real loop: ticks, then sleeps until the next due time or rescan, until cancelled.
    /// - Parameter rescanEvery: how often to look at the ledger when nothing nudged the tracker
    ///   (default: `settings.rescanInterval`). With the change feed running, `nudge()` says when the
    ///   ledger moved, so this can be long and the tracker sleeps between passes.
    public func run(rescanEvery: TimeInterval? = nil) async {
        var nudged = false
        while !Task.isCancelled {
            if nudged { refresh() }
            await tick()
            let now = clock.now()
            var wake = now.addingTimeInterval(rescanEvery ?? settings.rescanInterval)
            if let due = nextDueDate(), due < wake { wake = due }
            nudged = await wakeSignal.wait(upTo: max(0.02, wake.timeIntervalSince(now)))
        }
    }

    /// Says the ledger changed (the change feed calls it): a sleeping `run()` looks at it now.
    public nonisolated func nudge() { wakeSignal.signal() }

    /// Ticks (with real sleeps) until every listed bulk is settled; for `herald status --wait`.
    public func waitUntilSettled(bulkIds: [String]) async {
        for id in bulkIds { track(bulkId: id) }
        while !Task.isCancelled, !bulkIds.allSatisfy({ isSettled(bulkId: $0) }) {
            await tick()
            if bulkIds.allSatisfy({ isSettled(bulkId: $0) }) { break }
            let now = clock.now()
            var wake = now.addingTimeInterval(settings.rescanInterval)
            if let due = nextDueDate(), due < wake { wake = due }
            try? await Task.sleep(nanoseconds: UInt64(max(0.02, wake.timeIntervalSince(now)) * 1_000_000_000))
        }
    }

    /// Delivery states the platform pushed (a server's event stream), stored like a poll's answer without
    /// spending a pass (see `store`); a failure is logged. Answers how many rows changed or were added.
    @discardableResult
    public func applyPushed(_ infos: [DeliveryInfo], bulkId: String, messageText: String? = nil, sentBy: String? = nil) -> Int {
        do { return try store(infos, bulkId: bulkId, messageText: messageText, sentBy: sentBy) } catch {
            log.error("cannot store pushed delivery states", metadata: ["bulk": "\(bulkId)", "cause": "\(logCause(error))"])
            return 0
        }
    }

    /// Delivery states the platform gave outside a pass (pushed, or asked for by `herald status`), stored like a
    /// poll's answer without spending a pass. A bulk this ledger does not hold is a colleague's: it is stored as
    /// theirs, so the team's bulks show beside this workspace's, with their message when the event carries it.
    /// Answers how many rows changed or were added.
    @discardableResult
    public func store(_ infos: [DeliveryInfo], bulkId: String, messageText: String? = nil, sentBy: String? = nil) throws -> Int {
        let updates = infos.map { DeliveryUpdate($0) }
        guard try ledger.bulk(id: bulkId) != nil else {
            return try ledger.recordTeamBulk(bulkId: bulkId, createdAt: clock.now(), messageText: messageText, sentBy: sentBy, updates)
        }
        let applied = try ledger.applyDeliveryInfos(bulkId: bulkId, updates)
        if var entry = entries[bulkId], !applied.isEmpty {
            for row in try ledger.recipients(ofBulk: bulkId) {
                if let id = row.id { entry.statuses[id] = row.status; entry.rows[id] = row }
            }
            entries[bulkId] = entry
        }
        return applied.count
    }

    // MARK: steps

    /// Applies one bulk's delivery infos, records the pass and its next time.
    private func apply(_ infos: [DeliveryInfo], bulkId: String, at now: Date) throws -> [DeliveryChange] {
        let updates = infos.map { DeliveryUpdate($0) }
        let applied = try ledger.applyDeliveryInfos(bulkId: bulkId, updates)
        let rows = try ledger.recipients(ofBulk: bulkId)
        let passes = (entries[bulkId]?.record.passesDone ?? 0) + 1
        let pending = rows.filter { !$0.status.isFinal(for: $0.msisdn) }.map(\.status)
        var next = nextPoll(after: now, passesDone: passes, pending: pending)
        if !pending.isEmpty, pending.allSatisfy({ $0 == .scheduled }), let sendAt = try ledger.bulk(id: bulkId)?.sendAt {
            // Held: read again just after it leaves (on the embedded platform that read hands it over).
            next = max(sendAt.addingTimeInterval(1), now.addingTimeInterval(1))
        }
        try ledger.recordPoll(bulkId: bulkId, nextPollAt: next)
        if var entry = entries[bulkId] {
            entry.record.passesDone = passes
            entry.record.nextPollAt = next
            entry.record.lastPolledAt = now
            for row in rows { if let id = row.id { entry.statuses[id] = row.status; entry.rows[id] = row } }
            entries[bulkId] = entry
        }
        return applied.map {
            DeliveryChange(bulkId: bulkId, address: String($0.msisdn.drop { $0 == "+" }), messageId: $0.messageId,
                           personId: $0.personId, from: $0.from, to: $0.to, at: now)
        }
    }

    private func spendPass(bulkId: String, at now: Date) {
        let passes = (entries[bulkId]?.record.passesDone ?? 0) + 1
        let pending = entries[bulkId]?.statuses.values.filter { !$0.isFinal } ?? []
        let next = nextPoll(after: now, passesDone: passes, pending: Array(pending))
        do { try ledger.recordPoll(bulkId: bulkId, nextPollAt: next) } catch {
            logFailure("could not record the pass of bulk \(bulkId)", error)
        }
        entries[bulkId]?.record.passesDone = passes
        entries[bulkId]?.record.nextPollAt = next
        entries[bulkId]?.record.lastPolledAt = now
    }

    /// Re-reads a bulk's rows; returns the changes since they were last read (none for a new bulk).
    private func reload(_ record: BulkRecord, at now: Date) -> [DeliveryChange] {
        let rows: [InvitationInfo]
        do { rows = try ledger.recipients(ofBulk: record.bulkId) } catch {
            logFailure("could not read the recipients of bulk \(record.bulkId)", error)
            scannedVersion = nil
            return []
        }
        let before = entries[record.bulkId]
        var entry = Entry(record: record, statuses: [:], rows: [:])
        var changes: [DeliveryChange] = []
        for row in rows {
            guard let id = row.id else { continue }
            entry.statuses[id] = row.status
            entry.rows[id] = row
            if let before, let old = before.statuses[id], old != row.status {
                changes.append(DeliveryChange(bulkId: record.bulkId, address: String(row.msisdn.drop { $0 == "+" }),
                                              messageId: row.messageId, personId: row.personId, from: old, to: row.status,
                                              at: now))
            }
        }
        entries[record.bulkId] = entry
        return changes
    }

    private func logFailure(_ what: String, _ error: any Error) {
        log.warning("\(what)", metadata: ["error": "\(error)"])
    }
}

extension DeliveryUpdate {
    /// The ledger's update for a platform's delivery info, with what the carrier added (price, reason).
    public init(_ info: DeliveryInfo) {
        self.init(address: info.address, messageId: info.messageId, status: info.deliveryStatus, price: info.price,
                  currency: info.currency, reason: info.reason, permanent: info.permanent, sendAt: info.sendAt.flatMap(WireTime.date),
                  clicks: info.clicks)
    }
}
