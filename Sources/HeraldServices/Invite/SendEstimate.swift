import Foundation
import HeraldCore
import HeraldStore
import Logging

/// What a send will cost, before it is sent.
///
/// The price of one SMS part to a country is `[prices]` in config.toml when it names the country (the config wins),
/// else the newest price the platform reported for a message to that country in this ledger. Infobip reports
/// `price.pricePerMessage`, which its reference describes as the price of one SMS (one part; `smsCount` counts the
/// parts), and the ledger keeps it as reported: so the reported price is taken as the price of a part, not divided by
/// the message's parts. A message of several parts reported at its whole price would make the estimate high, never
/// low. Rows priced 0 (not charged) and rows without a currency (Herald's own simulated carrier) are not used. A
/// recipient whose country has neither is listed as unknown, never counted as 0.
extension InviteService {
    static let estimateLog = Logger(label: "herald.invite")

    /// The estimate of sending to `recipients` (E.164 addresses with their SMS parts, each its own text's).
    public func estimate(_ recipients: [(address: String, parts: Int)]) throws -> PriceEstimate {
        let items = recipients.map { r in
            PriceEstimate.Item(address: r.address, country: parser.parse(r.address).region, parts: r.parts)
        }
        let table = settings.prices
        let wanted = Set(items.compactMap(\.country)).filter { table.price(for: $0) == nil }
        let reported = wanted.isEmpty ? [:] : try ledger.reportedPrices(countries: Array(wanted))
        return PriceEstimate(items: items) { country in
            if let configured = table.price(for: country) { return configured }
            guard let r = reported[country] else { return nil }
            return UnitPrice(amount: r.price, currency: r.currency, source: .reported(at: r.reportedAt, of: r.count))
        }
    }

    /// What the bulk was estimated to cost when it was sent; nil when no estimate was kept.
    public func bulkEstimate(bulkId: String) throws -> BulkEstimate? {
        try ledger.estimate(bulkId: bulkId)
    }

    /// `[send] confirm_above`: a send estimated above this is confirmed again; nil: never.
    public nonisolated var confirmAbove: Double? { settings.confirmAbove }

    /// Keeps with each bulk of `result` the sum of the estimate over its recipients (what `herald status` shows beside
    /// the reported price). A bulk none of whose recipients was priced keeps none. Failing to keep it loses nothing
    /// of the send: it is logged.
    func recordEstimates(_ estimate: PriceEstimate, of result: InviteResult) {
        for bulkId in result.bulkIds {
            let addresses = result.recipients.filter { $0.bulkId == bulkId }.map(\.address)
            guard let cost = estimate.cost(of: addresses) else { continue }
            do { try ledger.recordEstimate(bulkId: bulkId, BulkEstimate(amount: cost.amount, currency: cost.currency)) } catch {
                Self.estimateLog.warning("could not keep a bulk's estimate", metadata: ["bulk": "\(bulkId)", "error": "\(error)"])
            }
        }
    }
}
