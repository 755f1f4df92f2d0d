import Foundation
import HeraldAPI

/// A server key's cap on what it may spend a day (`herald serve keys create --max-spend-per-day`).
///
/// What a key spent today (UTC) is the sum of the prices of the messages it sent since midnight UTC: the price the
/// carrier reported where it did (a report replaces the price the message was stored with), else that stored price,
/// which is the engine's own estimate. The engine has no client's `[prices]`: a send's estimate is the price it stores
/// with each message it accepts, its SMS parts times `EngineConfig.pricePerSegment` (0.01 by default: what the
/// simulated carrier charges). A send that would take today's spend past the cap is refused whole, with a 403 naming
/// the cap, what was spent today and the estimate; nothing of it is stored.
extension PlatformEngine {
    /// Refuses a send by `keyId` estimated at `estimate` when it would pass the key's cap; in the unit of work that
    /// stores it, so that two sends at once cannot both slip under.
    nonisolated func checkSpendCap(keyId: String?, keyName: String, estimate: Double, now: Date, _ db: any EngineSQL) throws {
        guard let keyId, estimate > 0, let cap = try db.keys.maxSpendPerDay(keyId: keyId) else { return }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? .current
        let since = utc.startOfDay(for: now).epochMilliseconds
        let spent = try db.bulks.spent(keyId: keyId, since: since)
        guard spent + estimate > cap + 1e-9 else { return }
        throw APIError.forbidden("key \"\(keyName)\" may spend \(Self.amount(cap)) a day (--max-spend-per-day): "
                                 + "\(Self.amount(spent)) spent today (UTC), and this send is estimated at \(Self.amount(estimate)); "
                                 + "nothing was sent")
    }

    /// "1.35", "0.0075".
    public nonisolated static func amount(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3 {
            text.removeLast()
        }
        return text
    }
}

extension BulkRepository {
    /// Names the key that sent a bulk.
    func setKey(bulkId: String, keyId: String) throws {
        try db.execute("UPDATE bulk SET keyId = ? WHERE id = ?", [keyId, bulkId])
    }

    /// The prices of the accepted messages of the bulks `keyId` sent since `since` (epoch ms), summed.
    func spent(keyId: String, since: Int64) throws -> Double {
        try db.value(Double.self, """
            SELECT COALESCE(SUM(s.price), 0) FROM sent s JOIN bulk b ON b.id = s.bulkId
            WHERE b.keyId = ? AND b.createdAt >= ? AND s.accepted = 1
            """, [keyId, since]) ?? 0
    }
}
