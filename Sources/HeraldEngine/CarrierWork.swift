import Foundation
import HeraldAPI
import HeraldCore

/// What one pass of carrier work did.
public struct CarrierPass: Sendable, Hashable {
    /// Messages handed from the outbox to the carrier.
    public var handed = 0
    /// Stored statuses that changed.
    public var changed = 0
    /// When the next report is due; nil when nothing waits for one.
    public var nextDueAt: Date?
}

extension PlatformEngine {
    static let carrierBatch = 1000

    /// One pass of the carrier's work: hands committed messages to the carrier, then stores every report due now.
    /// Several processes may run it on one database: each row is updated only from the state it was read in.
    public func runCarrierPass() async throws -> CarrierPass {
        var pass = CarrierPass()
        pass.handed = try await drainOutbox(bulkId: nil)
        pass.changed = try await collectQueuedReports()
        pass.changed += try await collectReports(bulkId: nil)
        await collectReplies()
        pass.nextDueAt = try await nextReportDue()
        return pass
    }

    /// When the earliest report is due or the earliest held message is released (one read); nil when nothing waits.
    func nextReportDue() async throws -> Date? {
        try await store.read { db in try db.outbox.nextDue() }.map(Date.init(epochMilliseconds:))
    }

    /// Hands messages committed to the outbox to the carrier and stores its first reports. Messages are claimed
    /// first (outbox 2, with a lease in `nextCheckAt`), so another process leaves them alone while the carrier
    /// answers; a claim whose lease ran out (the process died) is handed over again marked `mayHaveBeenSent`.
    @discardableResult
    func drainOutbox(bulkId: String?) async throws -> Int {
        var handed = try await drainMail(bulkId: bulkId)
        while true {
            let claimed = try await claimOutbox(bulkId: bulkId)
            guard !claimed.isEmpty else { return handed }
            for (app, group) in Dictionary(grouping: claimed, by: { $0.applicationKey }) {
                // A message refused for good comes back `rejected` with the carrier's reason; one the carrier
                // did not answer for stays claimed and is handed over again when its lease runs out.
                let reports = try await carrier.submit(group.map(\.message), at: now)
                _ = try await storeReports(reports, applicationKey: app, from: .outbox)
                handed += reports.count
            }
            if claimed.count < Self.carrierBatch { return handed }
        }
    }

    /// Claims up to a batch of outbox messages in one unit of work: new ones, and claims whose lease ran out.
    private func claimOutbox(bulkId: String?) async throws -> [ClaimedSMS] {
        let at = nowMs
        let lease = at + Int64(carrier.handOverLease * 1000)
        return try await store.write { db in
            try db.holds.releaseDue(at: at)
            return try db.outbox.claimSMS(at: at, lease: lease, bulkId: bulkId, limit: Self.carrierBatch)
        }
    }

    /// Asks the carrier about messages whose report is due and stores what changed; an event per bulk tells of it.
    @discardableResult
    func collectReports(bulkId: String?) async throws -> Int {
        var changed = 0
        let dueBy = nowMs
        var after: (Int64, String) = (Int64.min, "")
        while true {
            let page = after
            let rows = try await store.read { db in
                try db.outbox.dueReports(by: dueBy, bulkId: bulkId, after: page, limit: Self.carrierBatch)
            }
            guard let last = rows.last else { return changed }
            after = (last.nextCheckAt, last.messageId)
            for (app, group) in Dictionary(grouping: rows, by: \.applicationKey) {
                let inFlight = group.map { due in
                    InFlightSMS(messageId: due.messageId, bulkId: due.bulkId, acceptedAt: Date(epochMilliseconds: due.sentAt),
                                status: due.status)
                }
                let reports = try await carrier.reports(inFlight, at: now)
                changed += try await storeReports(reports, applicationKey: app, from: .due)
            }
            if rows.count < Self.carrierBatch { return changed }
        }
    }

    /// Where a report comes from, which says which rows it may change.
    enum ReportSource {
        /// The answer to a hand-over: rows still claimed for it.
        case outbox
        /// An ask for reports due: rows handed over and not final.
        case due
        /// Pushed or queued by the carrier on its own: rows handed over and not final, and rows whose hand-over
        /// answer is still awaited (a report may come before it). A final status is never changed, so a report that
        /// comes twice, or late, counts once.
        case carrier
    }

    /// Stores carrier reports of one application; rows that moved on meanwhile (another process stored a
    /// report first) are left alone. Writes one `deliveryChanged` event per bulk whose statuses changed.
    /// Answers how many statuses changed.
    func storeReports(_ reports: [CarrierReport], applicationKey: String, from source: ReportSource) async throws -> Int {
        guard !reports.isEmpty else { return 0 }
        let at = nowMs
        let changed = try await store.write { [self] db -> Int in
            var changes: [String: [DeliveryInfo]] = [:]
            let current = try db.outbox.reported(applicationKey: applicationKey, ids: reports.map(\.messageId))
            var updates: [ReportedUpdate] = []
            for report in reports {
                guard let row = current[report.messageId] else { continue }
                let outbox = row.outbox
                let final = outbox == 0 && row.nextCheckAt == nil
                switch source {
                case .outbox: guard outbox == 1 || outbox == 2 else { continue }   // never a held one (3)
                case .due: guard outbox == 0, !final else { continue }
                case .carrier: guard outbox == 2 || (outbox == 0 && !final) else { continue }
                }
                let price = report.price ?? row.price
                let currency = report.currency ?? row.currency
                let reason = report.reason ?? row.reason
                updates.append(ReportedUpdate(messageId: report.messageId, status: report.status,
                                              nextCheckAt: report.nextCheckAt?.epochMilliseconds, price: price, currency: currency,
                                              reason: reason, permanent: report.permanent))
                if report.status.rawValue != row.status || price != row.price {
                    changes[row.bulkId, default: []].append(DeliveryInfo(
                        address: row.address, messageId: report.messageId, clientCorrelator: row.bulkId,
                        deliveryStatus: report.status, price: price, currency: currency,
                        reason: report.status.isImpossible || report.status == .deliveryUncertain ? reason : nil, permanent: report.permanent ? true : nil))
                }
            }
            try db.outbox.store(updates, applicationKey: applicationKey, at: at)
            for (bulkId, infos) in changes.sorted(by: { $0.key < $1.key }) {
                try appendEvent(db, applicationKey: applicationKey,
                                .deliveryChanged(bulkId: bulkId, deliveryInfo: infos, isDelta: true))
            }
            return changes.values.reduce(0) { $0 + $1.count }
        }
        if changed > 0 { bell.ring() }
        return changed
    }
}

extension PlatformEngine {
    /// Puts a bulk's messages back in the outbox, as a crash between commit and hand-over leaves them (tests).
    func markInOutbox(bulkId: String) async throws {
        try await store.write { db in
            try db.outbox.reset(bulkId: bulkId, toOutbox: 1)
        }
    }

    /// Leaves a bulk's messages as a process that died while the carrier answered leaves them: claimed, the
    /// lease run out (tests).
    func markHandedWithoutAnswer(bulkId: String) async throws {
        try await store.write { db in
            try db.outbox.reset(bulkId: bulkId, toOutbox: 2)
        }
    }
}
