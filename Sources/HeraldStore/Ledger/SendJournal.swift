import Foundation
import GRDB
import HeraldCore

/// One send in flight as the ledger journals it: its request (JSON, the service's own shape) and
/// the lease of the process sending it.
public struct JournaledSend: Sendable, Hashable {
    public var id: String
    /// The `SendLease` owner; nil for a send journaled before leases existed.
    public var owner: String?
    public var payload: String

    public init(id: String, owner: String?, payload: String) {
        self.id = id
        self.owner = owner
        self.payload = payload
    }
}

/// What `LedgerStore.claim` queued and what it left out.
public struct SendClaim: Sendable {
    /// Journaled sends, each with the recipients queued under it, in the order given.
    public var sends: [(id: String, recipients: [QueuedRecipient])]
    /// Recipients the resend policy left out, with the reason.
    public var skipped: [(recipient: QueuedRecipient, reason: String)]
}

/// Rows left `queued` and the journaled sends, read in one snapshot (a send that finishes between
/// two separate reads would otherwise make its rows look orphaned).
public struct QueuedSnapshot: Sendable {
    public var queued: [InvitationInfo]
    public var sends: [JournaledSend]
}

extension LedgerStore {
    /// Plans and queues in one write transaction, so that processes sending to the same numbers at
    /// once see each other's rows: reads each number's latest status, keeps those `policy` allows,
    /// writes them `queued` and journals them in chunks of at most `chunkSize` under `owner`.
    /// `journal` makes each chunk's id and payload.
    public func claim(_ wanted: [QueuedRecipient], policy: ResendPolicy, owner: String, chunkSize: Int,
                      journal: ([QueuedRecipient]) throws -> (id: String, payload: String)) throws -> SendClaim {
        let now = clock.now().epochMilliseconds
        return try database.write { db in
            let latest = try Self.latestStatuses(db, msisdns: wanted.map(\.msisdn))
            let permanent = try Self.permanentFailures(db, msisdns: wanted.map(\.msisdn))
            var kept: [QueuedRecipient] = []
            var skipped: [(recipient: QueuedRecipient, reason: String)] = []
            for r in wanted {
                if case .skip(let reason) = policy.decide(latest: latest[r.msisdn], permanentFailure: permanent.contains(r.msisdn),
                                                              address: r.msisdn) {
                    skipped.append((r, reason))
                } else {
                    kept.append(r)
                }
            }
            var sends: [(id: String, recipients: [QueuedRecipient])] = []
            var start = 0
            while start < kept.count {
                let chunk = Array(kept[start..<min(start + max(1, chunkSize), kept.count)])
                start += chunk.count
                let entry = try journal(chunk)
                try db.execute(sql: "INSERT INTO pending_send (id, owner, payload, created_ms) VALUES (?, ?, ?, ?)",
                               arguments: [entry.id, owner, entry.payload, now])
                try Self.insertQueued(db, chunk, now: now)
                sends.append((entry.id, chunk))
            }
            return SendClaim(sends: sends, skipped: skipped)
        }
    }

    /// Rows still `queued` and every journaled send, from one snapshot.
    public func queuedSnapshot() throws -> QueuedSnapshot {
        try database.read { db in
            let queued = try Row.fetchAll(db, sql: "SELECT \(Self.columns) FROM invitation WHERE status = ? ORDER BY created_ms, id",
                                          arguments: [DeliveryStatus.queued.rawValue]).map(Self.invitation)
            let sends = try Row.fetchAll(db, sql: "SELECT id, owner, payload FROM pending_send ORDER BY created_ms, id")
                .map { JournaledSend(id: $0["id"], owner: $0["owner"], payload: $0["payload"]) }
            return QueuedSnapshot(queued: queued, sends: sends)
        }
    }

    /// Makes `owner` the owner of a send whose owner `previous` is gone; false when another
    /// process took it first (or it was finished meanwhile).
    public func takeOver(send id: String, from previous: String?, to owner: String) throws -> Bool {
        try database.write { db in
            try db.execute(sql: "UPDATE pending_send SET owner = ? WHERE id = ? AND owner IS ?",
                           arguments: [owner, id, previous])
            return db.changesCount == 1
        }
    }

    /// Forgets a journaled send (its rows have their answer, or it has none left queued).
    public func removeSend(id: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM pending_send WHERE id = ?", arguments: [id])
        }
    }

    /// The numbers whose latest invitation failed for good, as the carrier said.
    static func permanentFailures(_ db: Database, msisdns: [String]) throws -> Set<String> {
        var out = Set<String>()
        let stmt = try db.cachedStatement(sql: """
            SELECT permanent FROM invitation WHERE msisdn = ? ORDER BY created_ms DESC, id DESC LIMIT 1
            """)
        for m in Set(msisdns) where try Bool.fetchOne(stmt, arguments: [m]) == true { out.insert(m) }
        return out
    }

    static func latestStatuses(_ db: Database, msisdns: [String]) throws -> [String: DeliveryStatus] {
        var out: [String: DeliveryStatus] = [:]
        let stmt = try db.cachedStatement(sql: """
            SELECT status FROM invitation WHERE msisdn = ? ORDER BY created_ms DESC, id DESC LIMIT 1
            """)
        for m in Set(msisdns) {
            if let s = try String.fetchOne(stmt, arguments: [m]) { out[m] = DeliveryStatus(parsing: s) }
        }
        return out
    }
}
