import Foundation
import HeraldCore
import HeraldServices

/// What a send will cost, checked before anything reaches the ledger: `--max-cost` refuses a send estimated above it
/// (or one with recipients whose price is unknown, unless `--allow-unknown-price`), and `[send] confirm_above` refuses
/// one above it without `--yes`.
extension SendCommand {
    /// The send's estimate (from its preview, by the same rules), or the refusal; nil when it cannot be worked out and
    /// nothing asks for it (the send then says what is wrong).
    func checkCost(_ targets: [InviteTarget], options: InviteOptions, ws: Workspace) async throws -> PriceEstimate? {
        let confirmAbove = ws.invites.confirmAbove
        let asked = maxCost != nil || (confirmAbove != nil && !yes)
        let preview: InvitePreview
        do { preview = try await ws.invites.preview(targets, options: options, link: ws.linkExample) } catch {
            if asked { throw Output.failure(for: error) }
            return nil
        }
        let estimate = preview.estimate
        if let maxCost {
            if estimate.exceeds(maxCost) {
                throw Output.failure("the estimate, \(estimate.summary), is above --max-cost \(PriceEstimate.format(maxCost)); nothing was sent")
            }
            if !estimate.unknown.isEmpty, !allowUnknownPrice {
                throw Output.failure("--max-cost cannot be kept: \(Self.unknownText(estimate)); set their price in [prices] "
                                     + "(e.g. \(estimate.unknown.first?.country ?? "HR") = 0.05), or pass --allow-unknown-price to count only the "
                                     + "known ones; nothing was sent")
            }
        }
        if let confirmAbove, !yes {
            if estimate.exceeds(confirmAbove) {
                throw Output.failure("the estimate, \(estimate.summary), is above [send] confirm_above = "
                                     + "\(PriceEstimate.format(confirmAbove)): pass --yes to send it; nothing was sent")
            }
            if !estimate.unknown.isEmpty {
                throw Output.failure("[send] confirm_above = \(PriceEstimate.format(confirmAbove)) cannot be checked: "
                                     + "\(Self.unknownText(estimate)); pass --yes to send it, or set their price in [prices]; nothing was sent")
            }
        }
        return estimate
    }

    /// "the price is unknown for 2 recipients (US: +12025550100, …)".
    static func unknownText(_ estimate: PriceEstimate) -> String {
        let n = estimate.unknown.count
        let shown = estimate.unknown.prefix(3).map { "\($0.address) (\($0.country ?? "no country"))" }.joined(separator: ", ")
        return "the price is unknown for \(n) recipient\(n == 1 ? "" : "s"): \(shown)\(n > 3 ? ", …" : "")"
    }

    /// The estimate under a dry run's table.
    static func printEstimate(_ estimate: PriceEstimate) {
        if estimate.countries.isEmpty, estimate.unknown.isEmpty { return }
        let totals = estimate.totals.map { "\(PriceEstimate.format($0.amount)) \($0.currency)" }.joined(separator: " + ")
        print("Estimated cost: " + (totals.isEmpty ? "unknown" : "about \(totals)")
              + (estimate.unknown.isEmpty ? "" : " (without the \(estimate.unknown.count) whose price is unknown)"))
        if !estimate.countries.isEmpty {
            var table = OutputTable(headers: ["COUNTRY", "RECIPIENTS", "PARTS", "PER PART", "SUBTOTAL", "PRICE FROM"],
                                    maxWidths: [8, 10, 6, 10, 16, 40])
            for c in estimate.countries {
                table.add([c.code, "\(c.recipients)", "\(c.parts)", PriceEstimate.format(c.unitPrice),
                           "\(PriceEstimate.format(c.subtotal)) \(c.currency)", c.source.description])
            }
            print(table.render(), terminator: "")
        }
        if !estimate.unknown.isEmpty {
            print("Price unknown (not counted; set it in [prices], e.g. \(estimate.unknown.first?.country ?? "HR") = 0.05):")
            var table = OutputTable(headers: ["ADDRESS", "COUNTRY", "PARTS"], maxWidths: [24, 12, 6])
            for u in estimate.unknown { table.add([u.address, u.country ?? "none", "\(u.parts)"]) }
            print(table.render(), terminator: "")
        }
    }
}

/// `estimate` in `herald send --dry-run --json`: `total` and `currency` (null when the prices are in several
/// currencies or none is known; `totals` has each), each country, and who has no known price.
struct EstimateJSON: Encodable {
    struct Country: Encodable {
        var country: String
        var recipients: Int
        var parts: Int
        var unitPrice: Double
        var currency: String
        var subtotal: Double
        /// "[prices] HR", "reported 2026-11-20 (newest of 12)".
        var source: String
    }

    struct Unknown: Encodable {
        var address: String
        var country: String?
        var parts: Int

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(address, forKey: .address)
            try c.encode(country, forKey: .country)
            try c.encode(parts, forKey: .parts)
        }
        enum CodingKeys: String, CodingKey { case address, country, parts }
    }

    struct Total: Encodable {
        var currency: String
        var amount: Double
    }

    var total: Double?
    var currency: String?
    var totals: [Total]
    var countries: [Country]
    var unknown: [Unknown]

    init(_ e: PriceEstimate) {
        total = e.total?.amount
        currency = e.total?.currency
        totals = e.totals.map { Total(currency: $0.currency, amount: $0.amount) }
        countries = e.countries.map {
            Country(country: $0.code, recipients: $0.recipients, parts: $0.parts, unitPrice: $0.unitPrice, currency: $0.currency,
                    subtotal: $0.subtotal, source: $0.source.description)
        }
        unknown = e.unknown.map { Unknown(address: $0.address, country: $0.country, parts: $0.parts) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(total, forKey: .total)
        try c.encode(currency, forKey: .currency)
        try c.encode(totals, forKey: .totals)
        try c.encode(countries, forKey: .countries)
        try c.encode(unknown, forKey: .unknown)
    }
    enum CodingKeys: String, CodingKey { case total, currency, totals, countries, unknown }
}
