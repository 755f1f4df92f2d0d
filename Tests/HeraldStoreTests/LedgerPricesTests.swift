import Foundation
import HeraldCore
@testable import HeraldStore
import HeraldTestKit
import Testing

/// The ledger's reported prices by country (what a send's estimate reads when `[prices]` does not name the country),
/// and the estimate a bulk keeps.
@Suite struct LedgerPricesTests {
    @Test func theNewestChargedPriceOfEachCountryIsReadWithHowManyThereAre() throws {
        let s = try TempStore()
        let ledger = LedgerStore(database: s.database, clock: s.clock)
        try ledger.recordTeamBulk(bulkId: "old", createdAt: s.clock.now(), [
            DeliveryUpdate(address: "385911111111", messageId: "m1", status: .deliveredToTerminal, price: 0.0075, currency: "EUR"),
            DeliveryUpdate(address: "385912222222", messageId: "m2", status: .deliveredToTerminal, price: 0.0075, currency: "EUR"),
            DeliveryUpdate(address: "12025550123", messageId: "m3", status: .deliveredToTerminal, price: 0.01, currency: "USD"),
        ])
        s.clock.advance(by: 3_600)
        try ledger.recordTeamBulk(bulkId: "new", createdAt: s.clock.now(), [
            DeliveryUpdate(address: "385913333333", messageId: "m4", status: .deliveredToTerminal, price: 0.009, currency: "EUR"),
            // Not charged, and no currency (the simulated carrier): neither is a price to go by.
            DeliveryUpdate(address: "385914444444", messageId: "m5", status: .rejected, price: 0, currency: "EUR"),
            DeliveryUpdate(address: "385915555555", messageId: "m6", status: .deliveredToTerminal, price: 0.5),
        ])
        let prices = try ledger.reportedPrices(countries: ["HR", "us", "SI"])
        #expect(Set(prices.keys) == ["HR", "US"])
        let hr = try #require(prices["HR"])
        #expect(hr.price == 0.009 && hr.currency == "EUR" && hr.count == 3)
        #expect(hr.reportedAt.epochMilliseconds == s.clock.now().epochMilliseconds)
        #expect(prices["US"]?.price == 0.01 && prices["US"]?.currency == "USD" && prices["US"]?.count == 1)
    }

    @Test func aBulkKeepsItsEstimateAndItsRecordCarriesIt() throws {
        let s = try TempStore()
        let ledger = LedgerStore(database: s.database, clock: s.clock)
        try ledger.recordTeamBulk(bulkId: "b1", createdAt: s.clock.now(), [
            DeliveryUpdate(address: "385911111111", messageId: "m1", status: .deliveredToTerminal),
        ])
        #expect(try ledger.estimate(bulkId: "b1") == nil)
        #expect(try ledger.bulk(id: "b1")?.estimate == nil)
        try ledger.recordEstimate(bulkId: "b1", BulkEstimate(amount: 1.35, currency: "EUR"))
        #expect(try ledger.estimate(bulkId: "b1") == BulkEstimate(amount: 1.35, currency: "EUR"))
        let record = try #require(try ledger.bulk(id: "b1"))
        #expect(record.estimate == 1.35 && record.estimateCurrency == "EUR")
        #expect(try ledger.estimate(bulkId: "no-such-bulk") == nil)
    }
}
