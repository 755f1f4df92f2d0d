import Foundation

/// Where the price of one SMS part to a country came from.
public enum PriceSource: Sendable, Hashable, CustomStringConvertible {
    /// `[prices]` in config.toml names the country.
    case table(country: String)
    /// The newest price the platform reported for a message to the country, reported at `at`, of `of` priced messages.
    case reported(at: Date, of: Int)

    /// "[prices] HR", "reported 2026-11-20 (newest of 12)".
    public var description: String {
        switch self {
        case .table(let country): return "[prices] \(country)"
        case .reported(let at, let count):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
            let d = calendar.dateComponents([.year, .month, .day], from: at)
            let day = String(format: "%04d-%02d-%02d", d.year ?? 0, d.month ?? 0, d.day ?? 0)
            return "reported \(day) (newest of \(count))"
        }
    }
}

/// The price of one SMS part to a country, in a currency, and where it came from.
public struct UnitPrice: Sendable, Hashable {
    public var amount: Double
    public var currency: String
    public var source: PriceSource

    public init(amount: Double, currency: String, source: PriceSource) {
        self.amount = amount
        self.currency = currency
        self.source = source
    }
}

/// `[prices]` in config.toml: the price of one SMS part by country (ISO region code, `HR = 0.05`), in one currency.
public struct PriceTable: Sendable, Hashable {
    public static let defaultCurrency = "EUR"
    public var currency: String
    /// By upper-case ISO region code.
    public var perPart: [String: Double]

    public init(currency: String = PriceTable.defaultCurrency, perPart: [String: Double] = [:]) {
        self.currency = currency
        self.perPart = Dictionary(perPart.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    public var isEmpty: Bool { perPart.isEmpty }

    /// The table's price for `country`, nil when it does not name it.
    public func price(for country: String?) -> UnitPrice? {
        guard let country = country?.uppercased(), let amount = perPart[country] else { return nil }
        return UnitPrice(amount: amount, currency: currency, source: .table(country: country))
    }
}

/// What a send will cost, before it is sent: per country the recipients, their SMS parts (each recipient's own text),
/// the price of a part and where it came from, and the subtotal; a total per currency; and the recipients whose price
/// is unknown, listed, never counted as 0.
public struct PriceEstimate: Sendable, Hashable {
    /// One recipient as the send would reach it.
    public struct Item: Sendable, Hashable {
        public var address: String
        /// ISO region of the number; nil when no region owns it.
        public var country: String?
        /// SMS parts of this recipient's own text.
        public var parts: Int

        public init(address: String, country: String?, parts: Int) {
            self.address = address
            self.country = country
            self.parts = parts
        }
    }

    public struct Country: Sendable, Hashable {
        public var code: String
        public var recipients: Int
        public var parts: Int
        public var unitPrice: Double
        public var currency: String
        public var subtotal: Double
        public var source: PriceSource
    }

    /// A recipient no price is known for.
    public struct Unknown: Sendable, Hashable {
        public var address: String
        public var country: String?
        public var parts: Int
    }

    public struct Total: Sendable, Hashable {
        public var currency: String
        public var amount: Double

        public init(currency: String, amount: Double) {
            self.currency = currency
            self.amount = amount
        }
    }

    public struct Cost: Sendable, Hashable {
        public var amount: Double
        public var currency: String

        public init(amount: Double, currency: String) {
            self.amount = amount
            self.currency = currency
        }
    }

    /// By country code.
    public var countries: [Country]
    /// By currency (one, unless the prices come in several).
    public var totals: [Total]
    public var unknown: [Unknown]
    /// Each priced recipient's cost, by address (what one bulk of the send costs is the sum over its recipients).
    public var costs: [String: Cost]

    /// Prices `items` by `price` (per country; nil: unknown).
    public init(items: [Item], price: (String) -> UnitPrice?) {
        var byCountry: [String: Country] = [:]
        var unknown: [Unknown] = []
        var costs: [String: Cost] = [:]
        var known: [String: UnitPrice?] = [:]
        for item in items {
            guard let code = item.country?.uppercased() else {
                unknown.append(Unknown(address: item.address, country: nil, parts: item.parts))
                continue
            }
            let unit: UnitPrice?
            if let hit = known[code] { unit = hit } else {
                unit = price(code)
                known[code] = unit
            }
            guard let unit else {
                unknown.append(Unknown(address: item.address, country: code, parts: item.parts))
                continue
            }
            let cost = unit.amount * Double(item.parts)
            var line = byCountry[code] ?? Country(code: code, recipients: 0, parts: 0, unitPrice: unit.amount,
                                                  currency: unit.currency, subtotal: 0, source: unit.source)
            line.recipients += 1
            line.parts += item.parts
            line.subtotal = Self.rounded(unit.amount * Double(line.parts))
            byCountry[code] = line
            costs[item.address, default: Cost(amount: 0, currency: unit.currency)].amount += cost
        }
        countries = byCountry.values.sorted { $0.code < $1.code }
        totals = Dictionary(grouping: countries, by: \.currency)
            .map { Total(currency: $0.key, amount: Self.rounded($0.value.reduce(0) { $0 + $1.subtotal })) }
            .sorted { $0.currency < $1.currency }
        self.unknown = unknown
        self.costs = costs.mapValues { Cost(amount: Self.rounded($0.amount), currency: $0.currency) }
    }

    /// The total when the prices are in one currency (0 in none), nil when they are in several.
    public var total: Total? {
        switch totals.count {
        case 0: return nil
        case 1: return totals[0]
        default: return nil
        }
    }

    /// Whether any currency's total is above `amount`.
    public func exceeds(_ amount: Double) -> Bool {
        totals.contains { $0.amount > amount + 1e-9 }
    }

    /// The cost of these recipients (a bulk's), per currency; nil when none of them is priced.
    public func cost(of addresses: [String]) -> Cost? {
        var sum: Cost?
        for address in addresses {
            guard let c = costs[address] else { continue }
            sum = Cost(amount: (sum?.amount ?? 0) + c.amount, currency: c.currency)
        }
        return sum.map { Cost(amount: Self.rounded($0.amount), currency: $0.currency) }
    }

    /// "about 1.35 EUR (HR 27 parts × 0.05)", with "price unknown for 2 (US, no country)" after it when some are not
    /// priced; "price unknown for 3 (US)" when none is.
    public var summary: String {
        var text = totals.map { total in
            let lines = countries.filter { $0.currency == total.currency }
                .map { "\($0.code) \($0.parts) part\($0.parts == 1 ? "" : "s") × \(Self.format($0.unitPrice))" }
            return "about \(Self.format(total.amount)) \(total.currency) (\(lines.joined(separator: ", ")))"
        }.joined(separator: " + ")
        if !unknown.isEmpty {
            var places: [String] = []
            for u in unknown {
                let place = u.country ?? "no country"
                if !places.contains(place) { places.append(place) }
            }
            text += (text.isEmpty ? "" : "; ") + "price unknown for \(unknown.count) (\(places.joined(separator: ", ")))"
        }
        return text.isEmpty ? "nothing to price" : text
    }

    /// An amount as written: at least two decimals, at most four ("1.35", "0.0075", "12.00").
    public static func format(_ amount: Double) -> String {
        var text = String(format: "%.4f", amount)
        while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 3 {
            text.removeLast()
        }
        return text
    }

    /// To four decimals, so that sums of tenths of cents do not show binary noise.
    public static func rounded(_ amount: Double) -> Double {
        (amount * 10_000).rounded() / 10_000
    }
}
