import Foundation
import HeraldCore
import TOMLKit

extension HeraldConfig {
    /// `[prices]`: the price of one SMS part by country, `HR = 0.05` (an ISO region code, two letters), and
    /// `currency = "EUR"` (three letters; EUR when left out). A send's estimate takes these before the prices the
    /// platform reported.
    static func parsePrices(_ value: TOMLValueConvertible, file: String, lines: ConfigLines) throws -> PriceTable {
        guard let table = value.table else {
            throw ConfigError(file: file, line: lines.line(of: "prices"),
                              message: "[prices] must be a table of country = price of one SMS part, like HR = 0.05")
        }
        var currency = PriceTable.defaultCurrency
        var perPart: [String: Double] = [:]
        for key in table.keys.sorted() {
            let at = "prices.\(key)"
            guard let item = table[key] else { continue }
            if key == "currency" {
                guard let text = item.string, text.count == 3, text.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw ConfigError(file: file, line: lines.line(of: at),
                                      message: "prices.currency must be a currency code of three letters, like currency = \"EUR\"")
                }
                currency = text.uppercased()
                continue
            }
            guard key.count == 2, key.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw ConfigError(file: file, line: lines.line(of: at),
                                  message: "prices.\(key) is not a country: write its two-letter code (ISO 3166), like HR = 0.05, or currency = \"EUR\"")
            }
            guard let amount = item.double ?? item.int.map(Double.init), amount >= 0, amount.isFinite, amount < 1_000 else {
                throw ConfigError(file: file, line: lines.line(of: at),
                                  message: "prices.\(key) must be the price of one SMS part, a number from 0 to 1000, like \(key.uppercased()) = 0.05")
            }
            perPart[key.uppercased()] = amount
        }
        return PriceTable(currency: currency, perPart: perPart)
    }
}
