import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// A colleague's bulk learnt from a server's events keeps who sent it (the key's name the announcement carries), so
/// Deliveries' `by:` finds it and the export names the sender; a later event without the name keeps it.
@Suite struct TeamBulkSenderTests {
    @Test func aColleaguesBulkKeepsWhoSentIt() async throws {
        let h = try await WorkspaceHarness()
        let tracker = h.workspace.tracker
        let info = DeliveryInfo(address: "385911111111", messageId: "m-1", clientCorrelator: "team-bulk", deliveryStatus: .messageWaiting, price: 0)
        #expect(await tracker.applyPushed([info], bulkId: "team-bulk", messageText: "Come along: <>", sentBy: "ana") == 1)
        _ = await tracker.applyPushed([DeliveryInfo(address: "385911111111", messageId: "m-1", clientCorrelator: "team-bulk",
                                                    deliveryStatus: .deliveredToTerminal, price: 0)], bulkId: "team-bulk")
        let search = h.workspace.deliveries
        let found = try await search.recipients(try search.query("by:ana"), range: 0..<10)
        #expect(found.map(\.bulkId) == ["team-bulk"] && found.first?.sentBy == "ana", "\(found)")
        #expect(try await search.matches(try search.query("by:vera")).total == 0)
    }
}
