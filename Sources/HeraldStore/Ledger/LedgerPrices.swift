import Foundation
import GRDB
import HeraldCore

/// The newest price the platform reported for a message to one country, and how many priced messages the ledger
/// holds for it.
public struct ReportedPrice: Sendable, Hashable {
    public var country: String
    /// As the platform reported it (Infobip's `pricePerMessage`: the price of one SMS part).
    public var price: Double
    public var currency: String
    /// When the report came (the row's last update).
    public var reportedAt: Date
    /// Priced messages to the country in the ledger.
    public var count: Int
}

/// What a bulk was estimated to cost when it was sent (`herald status` shows it beside the reported price).
public struct BulkEstimate: Sendable, Hashable {
    public var amount: Double
    public var currency: String

    public init(amount: Double, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

extension LedgerStore {
    /// The newest reported price of each of `countries` (ISO region codes) that has one: rows the carrier priced
    /// above 0 with a currency. A price of 0 is left out: carriers report 0 for a message they did not charge (a
    /// rejected one), which says nothing of what the next one costs.
    public func reportedPrices(countries: [String]) throws -> [String: ReportedPrice] {
        try database.read { db in
            var out: [String: ReportedPrice] = [:]
            let newest = try db.cachedStatement(sql: """
                SELECT price, currency, updated_ms FROM invitation
                WHERE country = ? AND price > 0 AND currency IS NOT NULL
                ORDER BY updated_ms DESC, id DESC LIMIT 1
                """)
            let count = try db.cachedStatement(sql: """
                SELECT COUNT(*) FROM invitation WHERE country = ? AND price > 0 AND currency IS NOT NULL
                """)
            for country in Set(countries.map { $0.uppercased() }) {
                guard let row = try Row.fetchOne(newest, arguments: [country]) else { continue }
                let updated: Int64 = row["updated_ms"]
                out[country] = ReportedPrice(country: country, price: row["price"], currency: row["currency"],
                                             reportedAt: Date(epochMilliseconds: updated),
                                             count: try Int.fetchOne(count, arguments: [country]) ?? 0)
            }
            return out
        }
    }

    /// Keeps what a bulk was estimated to cost (the sum over its recipients of the send's estimate).
    public func recordEstimate(bulkId: String, _ estimate: BulkEstimate) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE bulk SET estimate = ?, estimate_currency = ? WHERE bulk_id = ?",
                           arguments: [estimate.amount, estimate.currency, bulkId])
        }
    }

    /// What a bulk was estimated to cost when sent; nil when no estimate was kept (no price was known, or it was sent
    /// before estimates were kept, or by a colleague).
    public func estimate(bulkId: String) throws -> BulkEstimate? {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT estimate, estimate_currency FROM bulk WHERE bulk_id = ?",
                                             arguments: [bulkId]),
                  let amount: Double = row["estimate"], let currency: String = row["estimate_currency"] else { return nil }
            return BulkEstimate(amount: amount, currency: currency)
        }
    }
}
