import Foundation
import HeraldCore
@testable import HeraldServices
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldViewModels

/// The Composer's confirmation says what the send will cost, lists who has no known price, and above
/// `[send] confirm_above` asks a second time, naming the cost; the bulk keeps the estimate.
@Suite struct ComposerCostTests {
    func workspace(prices: [String: Double], confirmAbove: Double?) async throws -> WorkspaceHarness {
        var config = WorkspaceConfig(region: "HR")
        config.prices = PriceTable(perPart: prices)
        config.confirmAbove = confirmAbove
        return try await WorkspaceHarness.screens(config: config)
    }

    func composer(_ ws: WorkspaceHarness, _ pump: EffectPump) async -> ComposerViewModel {
        let vm = ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites, source: ComposerSource(),
                                   context: pump.context(), settings: ComposerSettings(sender: "Herald", senderName: "Ana"))
        vm.load()
        await pump.settle()
        return vm
    }

    @Test func aSendAboveConfirmAboveIsAskedAgainNamingItsCostAndItsBulkKeepsTheEstimate() async throws {
        let ws = try await workspace(prices: ["HR": 0.05], confirmAbove: 0.08)
        let pump = EffectPump()
        let vm = await composer(ws, pump)
        vm.setRecipients([try ws.person("Marko", numbers: ["091 234 5678"]), try ws.person("Iva", numbers: ["092 345 6789"])])
        #expect(vm.prepareSend() == nil)
        #expect(vm.confirmation?.cost == "Cost: working it out…")
        // Before the estimate comes, a yes does not send (the limit cannot be checked yet).
        vm.confirmSend()
        #expect(vm.confirmation != nil && !vm.isSending)
        await pump.settle()
        let first = try #require(vm.confirmation)
        #expect(first.cost == "Cost: about 0.10 EUR (HR 2 parts × 0.05)")
        #expect(first.unknownPrices.isEmpty)
        #expect(!first.needsExplicitYes)
        vm.confirmSend()
        // Asked again: the question names the cost and takes y.
        let again = try #require(vm.confirmation)
        #expect(again.askedAgain && again.needsExplicitYes)
        #expect(again.title == "about 0.10 EUR (HR 2 parts × 0.05): above [send] confirm_above = 0.08. Send it? y sends, esc cancels")
        #expect(try ws.workspace.ledger.bulks().isEmpty)
        vm.confirmSend()
        #expect(vm.confirmation == nil)
        await pump.settle()
        let bulk = try #require(vm.sentBulkIds.first)
        #expect(try ws.workspace.ledger.estimate(bulkId: bulk) == BulkEstimate(amount: 0.1, currency: "EUR"))
    }

    @Test func unknownPricesAreListedAndASendUnderTheLimitIsAskedOnce() async throws {
        let ws = try await workspace(prices: ["HR": 0.05], confirmAbove: nil)
        let pump = EffectPump()
        let vm = await composer(ws, pump)
        vm.setRecipients([try ws.person("Marko", numbers: ["091 234 5678"]), try ws.person("Joe", numbers: ["+1 202 555 0123"])])
        vm.prepareSend()
        await pump.settle()
        let c = try #require(vm.confirmation)
        #expect(c.cost == "Cost: about 0.05 EUR (HR 1 part × 0.05); price unknown for 1 (US)")
        #expect(c.unknownPrices == ["+12025550123"])
        vm.confirmSend()
        #expect(vm.confirmation == nil)
        await pump.settle()
        let bulk = try #require(vm.sentBulkIds.first)
        // The bulk keeps what was known: HR's part; the unknown one is not counted as 0 or anything else.
        #expect(try ws.workspace.ledger.estimate(bulkId: bulk) == BulkEstimate(amount: 0.05, currency: "EUR"))
    }
}
