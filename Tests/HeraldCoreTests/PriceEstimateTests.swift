import Foundation
import Testing
import HeraldCore

@Suite struct PriceEstimateTests {
    typealias Item = PriceEstimate.Item

    static let reportedAt = Date(timeIntervalSince1970: 1_795_132_800)  // 2026-11-20 UTC

    /// HR from the table, SI from a report, US unknown.
    static func price(_ country: String) -> UnitPrice? {
        switch country {
        case "HR": return PriceTable(perPart: ["hr": 0.05]).price(for: "HR")
        case "SI": return UnitPrice(amount: 0.0075, currency: "EUR", source: .reported(at: reportedAt, of: 12))
        default: return nil
        }
    }

    @Test func eachCountryCountsItsRecipientsPartsAndSubtotal() {
        var items = (0..<25).map { Item(address: "+3859100000\($0)", country: "HR", parts: 1) }
        items.append(Item(address: "+385910000099", country: "HR", parts: 2))
        items.append(Item(address: "+38640111222", country: "SI", parts: 3))
        let estimate = PriceEstimate(items: items, price: Self.price)
        #expect(estimate.countries.map(\.code) == ["HR", "SI"])
        let hr = estimate.countries[0]
        #expect(hr.recipients == 26)
        #expect(hr.parts == 27)
        #expect(hr.unitPrice == 0.05)
        #expect(hr.subtotal == 1.35)
        #expect(hr.source.description == "[prices] HR")
        let si = estimate.countries[1]
        #expect(si.subtotal == 0.0225)
        #expect(si.source.description == "reported 2026-11-20 (newest of 12)")
        #expect(estimate.totals == [PriceEstimate.Total(currency: "EUR", amount: 1.3725)])
        #expect(estimate.total?.amount == 1.3725)
        #expect(estimate.unknown.isEmpty)
        #expect(estimate.summary == "about 1.3725 EUR (HR 27 parts × 0.05, SI 3 parts × 0.0075)")
    }

    @Test func unknownPricesAreListedAndNeverCountedAsZero() {
        let estimate = PriceEstimate(items: [
            Item(address: "+385911111111", country: "HR", parts: 1),
            Item(address: "+12025550100", country: "US", parts: 2),
            Item(address: "+999123", country: nil, parts: 1),
        ], price: Self.price)
        #expect(estimate.total?.amount == 0.05)
        #expect(estimate.unknown.map(\.address) == ["+12025550100", "+999123"])
        #expect(estimate.unknown.map(\.country) == ["US", nil])
        #expect(estimate.costs["+12025550100"] == nil)
        #expect(estimate.summary == "about 0.05 EUR (HR 1 part × 0.05); price unknown for 2 (US, no country)")
        // Nothing known: no total at all, not a total of 0.
        let none = PriceEstimate(items: [Item(address: "+12025550100", country: "US", parts: 1)], price: Self.price)
        #expect(none.total == nil)
        #expect(none.totals.isEmpty)
        #expect(!none.exceeds(0))
        #expect(none.summary == "price unknown for 1 (US)")
    }

    @Test func theCeilingComparesEachCurrencyAndABulkCostsItsRecipients() {
        let estimate = PriceEstimate(items: [
            Item(address: "+385911111111", country: "HR", parts: 2),
            Item(address: "+385922222222", country: "HR", parts: 1),
            Item(address: "+447700900123", country: "GB", parts: 1),
        ]) { country in
            country == "GB" ? UnitPrice(amount: 0.04, currency: "GBP", source: .table(country: "GB"))
                : UnitPrice(amount: 0.05, currency: "EUR", source: .table(country: country))
        }
        #expect(estimate.totals.map(\.currency) == ["EUR", "GBP"])
        #expect(estimate.total == nil)  // two currencies: no one total
        #expect(estimate.exceeds(0.1))
        #expect(!estimate.exceeds(0.15))
        #expect(estimate.cost(of: ["+385911111111", "+385922222222"]) == PriceEstimate.Cost(amount: 0.15, currency: "EUR"))
        #expect(estimate.cost(of: ["+12025550100"]) == nil)
        #expect(estimate.summary == "about 0.15 EUR (HR 3 parts × 0.05) + about 0.04 GBP (GB 1 part × 0.04)")
    }

    @Test func amountsAreWrittenWithTwoToFourDecimals() {
        #expect(PriceEstimate.format(1.35) == "1.35")
        #expect(PriceEstimate.format(12) == "12.00")
        #expect(PriceEstimate.format(0.0075) == "0.0075")
        #expect(PriceEstimate.format(0.1 + 0.2) == "0.30")
        #expect(PriceEstimate.rounded(0.05 * 27) == 1.35)
    }

    @Test func theTableReadsCountryCodesInAnyCase() {
        let table = PriceTable(currency: "USD", perPart: ["us": 0.01])
        #expect(table.price(for: "US")?.amount == 0.01)
        #expect(table.price(for: "us")?.currency == "USD")
        #expect(table.price(for: "HR") == nil)
        #expect(table.price(for: nil) == nil)
    }
}
