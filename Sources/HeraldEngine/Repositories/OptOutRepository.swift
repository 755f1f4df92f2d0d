import Foundation
import HeraldAPI

/// The numbers that said stop, per application (`optout`).
struct OptOutRepository {
    let db: any EngineSQL

    /// The opted-out numbers among `msisdns` (E.164 without the plus), with when they opted out.
    func optedOut(applicationKey: String, msisdns: [String]) throws -> [String: Date] {
        var found: [String: Date] = [:]
        for chunk in SQLBatch.chunks(Array(Set(msisdns))) {
            for row in try db.rows("SELECT msisdn, createdAt FROM optout WHERE applicationKey = ? AND msisdn IN (\(SQLBatch.list(chunk.count)))",
                                   [applicationKey] + Array(chunk)) {
                found[row["msisdn"]] = Date(epochMilliseconds: row["createdAt"])
            }
        }
        return found
    }

    /// Opts `msisdn` out (kept as it was when it already is); answers the entry.
    func add(applicationKey: String, msisdn: String, source: String, at: Int64) throws -> OptOut {
        try db.execute("""
            INSERT INTO optout(applicationKey, msisdn, createdAt, source) VALUES (?, ?, ?, ?)
            ON CONFLICT(applicationKey, msisdn) DO NOTHING
            """, [applicationKey, msisdn, at, source])
        guard let entry = try find(applicationKey: applicationKey, msisdn: msisdn) else {
            throw EngineStoreError.failed("the opt-out of +\(msisdn) was not kept")
        }
        return entry
    }

    /// The opt-out of `msisdn`, nil when it is not opted out.
    func find(applicationKey: String, msisdn: String) throws -> OptOut? {
        try db.row("SELECT * FROM optout WHERE applicationKey = ? AND msisdn = ?", [applicationKey, msisdn]).map(Self.optOut)
    }

    /// Every opt-out of the application, newest first.
    func list(applicationKey: String) throws -> [OptOut] {
        try db.rows("SELECT * FROM optout WHERE applicationKey = ? ORDER BY createdAt DESC, msisdn", [applicationKey]).map(Self.optOut)
    }

    /// Takes `msisdn`'s opt-out back; answers whether there was one.
    @discardableResult
    func remove(applicationKey: String, msisdn: String) throws -> Bool {
        try db.execute("DELETE FROM optout WHERE applicationKey = ? AND msisdn = ?", [applicationKey, msisdn]) > 0
    }

    private static func optOut(_ row: SQLRow) -> OptOut {
        OptOut(number: "+" + (row["msisdn"] as String), since: WireTime.text(Date(epochMilliseconds: row["createdAt"])),
               source: row["source"])
    }
}
