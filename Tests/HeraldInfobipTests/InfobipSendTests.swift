import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Sending through Infobip's SMS API v3, against the stand-in: one entry per recipient with Herald's
/// messageId, split beyond the per-request limit, statuses mapped by group, price kept, errors explained.
@Suite struct InfobipSendTests {
    @Test func eachRecipientIsOneMessageWithItsOwnTextAndMessageIdUnderOneBulk() async throws {
        let h = try await InfobipHarness()
        let result = try await h.workspace.invites.invite(numbers: (0..<3).map(InfobipHarness.mobile),
                                                          options: InviteOptions(fields: ["SENDER_NAME": "Iva"]))
        #expect(result.recipients.count == 3)
        #expect(result.recipients.allSatisfy { $0.status == .messageWaiting })
        let sent = await h.state.sentInOrder
        #expect(sent.count == 3)
        #expect(Set(sent.map(\.bulkId)).count == 1)
        #expect(sent.map(\.destination) == (0..<3).map { String(InfobipHarness.mobile($0).dropFirst()) })
        #expect(sent.map(\.messageId) == result.recipients.map(\.messageId))
        // Herald renders the text: the link is the configured referral page, not a short link.
        #expect(sent.allSatisfy { $0.text.contains("https://example.com/join") && $0.text.contains("Iva") })
        let requests = await h.state.requests(to: "/sms/3/messages")
        #expect(requests.count == 1)
        #expect(requests.first?.headers["authorization"] == "App stand-in-key")
    }

    @Test func aBulkBeyondTheLimitIsSplitIntoSeveralRequestsOfOneBulk() async throws {
        let h = try await InfobipHarness(maxPerRequest: 4)
        let result = try await h.workspace.invites.invite(numbers: (0..<10).map(InfobipHarness.mobile))
        #expect(result.recipients.count == 10)
        let requests = await h.state.requests(to: "/sms/3/messages")
        #expect(requests.count == 3)
        let bodies = try requests.map { try #require(JSONSerialization.jsonObject(with: $0.body) as? [String: Any]) }
        #expect(bodies.map { ($0["messages"] as? [Any])?.count } == [4, 4, 2])
        let bulkIds = bodies.map { (($0["options"] as? [String: Any])?["schedule"] as? [String: Any])?["bulkId"] as? String }
        #expect(Set(bulkIds).count == 1 && bulkIds.first! != nil)
        #expect(await h.state.sentInOrder.count == 10)
    }

    @Test func everyStatusGroupMapsToHeraldsVocabularyAndThePriceIsKept() async throws {
        let h = try await InfobipHarness()
        let fates: [StandInState.Fate] = [.delivered, .viaOperator, .atOperator, .undeliverable, .expired, .rejected, .unknownGroup]
        let numbers = fates.indices.map(InfobipHarness.mobile)
        for (fate, number) in zip(fates, numbers) { await h.state.setFate(fate, for: String(number.dropFirst())) }
        let result = try await h.workspace.invites.invite(numbers: numbers)
        let bulkId = try #require(result.bulkId)
        let first = try await h.workspace.platform.deliveryInfos(bulkId: bulkId)
        let byAddress = Dictionary(uniqueKeysWithValues: first.map { ($0.address, $0) })
        func status(_ i: Int) -> DeliveryStatus? { byAddress[String(numbers[i].dropFirst())]?.deliveryStatus }
        #expect(status(0) == .deliveredToTerminal)
        #expect(status(1) == .deliveredToNetwork)
        #expect(status(2) == .deliveredToNetwork)
        #expect(status(3) == .deliveryImpossible)
        #expect(status(4) == .deliveryImpossible)
        #expect(status(5) == .deliveryImpossible)
        #expect(status(6) == .deliveryUncertain)
        // The error decides whether the failure is for good; its description is the reason.
        #expect(byAddress[String(numbers[3].dropFirst())]?.permanent == true)
        #expect(byAddress[String(numbers[3].dropFirst())]?.reason == "Absent Subscriber")
        #expect(byAddress[String(numbers[4].dropFirst())]?.permanent == nil)
        #expect(first.allSatisfy { $0.price == 0.0075 && $0.currency == "EUR" })
        // Via the operator, then to the handset on the next report.
        let second = try await h.workspace.platform.deliveryInfos(bulkId: bulkId)
        #expect(second.first { $0.address == String(numbers[1].dropFirst()) }?.deliveryStatus == .deliveredToTerminal)
        #expect(second.first { $0.address == String(numbers[2].dropFirst()) }?.deliveryStatus == .deliveredToNetwork)
    }

    @Test func reportsForManyBulksComeFromOneLogsCallWithRepeatedBulkIdsPagedByCursor() async throws {
        let state = StandInState()
        await state.setLogsPageSize(3)
        let h = try await InfobipHarness(state: state)
        var bulks: [String] = []
        for i in 0..<3 {
            let r = try await h.workspace.invites.invite(numbers: (0..<4).map { InfobipHarness.mobile(i * 10 + $0) })
            bulks.append(try #require(r.bulkId))
        }
        let before = await h.state.requests(to: "/sms/3/logs").count
        let infos = try await h.workspace.platform.deliveryInfos(bulkId: bulks[0])
        #expect(infos.allSatisfy { $0.deliveryStatus == .deliveredToTerminal })
        let calls = await h.state.requests(to: "/sms/3/logs").dropFirst(before)
        // 12 messages in pages of 3: four pages, each naming all three bulks.
        #expect(calls.count == 4)
        #expect(calls.allSatisfy { Set($0.values("bulkId")) == Set(bulks) })
        #expect(calls.dropFirst().allSatisfy { !$0.values("cursor").isEmpty })
        // The other bulks were reported in the same pass: reading them asks Infobip nothing.
        let others = try await h.workspace.platform.deliveryInfos(bulkId: bulks[2])
        #expect(others.allSatisfy { $0.deliveryStatus == .deliveredToTerminal })
        #expect(await h.state.requests(to: "/sms/3/logs").count == before + 4)
    }
}
