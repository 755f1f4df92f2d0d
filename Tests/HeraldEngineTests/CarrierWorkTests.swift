import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The carrier seam: messages go to the carrier after their transaction commits, reports are stored as
/// statuses, and every change is an event in the application's stream.
@Suite struct CarrierWorkTests {
    static func destinations(_ n: Int) -> [SendInvitationBody.Destination] {
        (0..<n).map { SendInvitationBody.Destination(address: "3859812\(String(format: "%05d", $0))", messageId: "w-\($0)") }
    }

    func events(_ h: EngineHarness, after id: Int64 = 0) async throws -> [PlatformEvent] {
        try await h.engine.events(applicationKey: h.creds.applicationKey, after: id)
            .map { try HeraldJSON.decode(PlatformEvent.self, from: $0.payload) }
    }

    @Test func onAServerOnlyTheCarrierWorkerMovesStatusesAndEachMoveIsAnEvent() async throws {
        var config = EngineConfig()
        config.collectReportsOnRead = false
        let h = try await EngineHarness.make(config: config)
        defer { h.cleanUp() }
        let bulk = try await h.invite(Self.destinations(20))
        // The bulk is announced with everyone in it, in the transaction that accepted it.
        let first = try await events(h)
        #expect(first.count == 1)
        guard case .deliveryChanged(let bulkId, let infos, _, let text, _)? = first.first else { Issue.record("no bulk event"); return }
        #expect(bulkId == bulk.bulkId)
        #expect(text?.contains("{RECEIVER_NAME}") == true, "the announcement carries the bulk's message as written: \(text ?? "none")")
        #expect(infos.count == 20 && infos.allSatisfy { $0.deliveryStatus == .messageWaiting })

        h.clock.advance(by: 60)
        // Reading does not ask the carrier: nothing moved yet.
        let unread = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(unread.deliveryInfoList.deliveryInfo.allSatisfy { $0.deliveryStatus == .messageWaiting })

        let pass = try await h.engine.runCarrierPass()
        #expect(pass.changed == 20)
        let read = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId))
        #expect(read.deliveryInfoList.deliveryInfo.allSatisfy { $0.deliveryStatus != .messageWaiting })
        let later = try await events(h, after: 1)
        let changed = later.flatMap { event -> [DeliveryInfo] in
            if case .deliveryChanged(_, let infos, _, _, _) = event { return infos }
            return []
        }
        #expect(changed.count == 20)
        #expect(Set(changed.map(\.deliveryStatus)) == Set(read.deliveryInfoList.deliveryInfo.map(\.deliveryStatus)))
        // A second pass at the same time has nothing to say.
        #expect(try await h.engine.runCarrierPass().changed == 0)
    }

    @Test func messagesLeftInTheOutboxByACrashAreHandedOverByTheNextPass() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bulk = try await h.invite(Self.destinations(3))
        // As if the process died between the commit and the hand-over.
        try await h.engine.markInOutbox(bulkId: bulk.bulkId)
        #expect(try await h.engine.runCarrierPass().handed == 3)
        #expect(try await h.engine.runCarrierPass().handed == 0)
    }

    @Test func twoEnginesOnOneFileStoreEachReportOnce() async throws {
        var config = EngineConfig()
        config.collectReportsOnRead = false
        let h = try await EngineHarness.make(config: config)
        defer { h.cleanUp() }
        let second = try await h.reopen(config: config)
        _ = try await h.invite(Self.destinations(30))
        h.clock.advance(by: 60)
        async let a = h.engine.runCarrierPass()
        async let b = second.runCarrierPass()
        let (one, two) = try await (a, b)
        #expect(one.changed + two.changed == 30)
        let changes = try await events(h, after: 1).flatMap { event -> [DeliveryInfo] in
            if case .deliveryChanged(_, let infos, _, _, _) = event { return infos }
            return []
        }
        #expect(changes.count == 30)
        #expect(Set(changes.map(\.messageId)).count == 30)
    }

    @Test func inboxMessagesAndClicksAreEventsToo() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let bell = h.engine.bell.listen()
        let pushed = try await h.engine.pushInbox(user: "ana", topic: "news", title: "Hi", body: "Hello")
        #expect(await bell.wait(upTo: 5))
        let bulk = try await h.invite(Self.destinations(1))
        let link = try #require(try await h.engine.shortLink(applicationKey: h.creds.applicationKey,
                                                              messageId: bulk.responses[0].messageId))
        _ = try await h.engine.recordClick(code: link.code)
        _ = try await h.engine.recordClick(code: link.code)
        let all = try await events(h)
        #expect(all.count == 6)
        guard case .inboxMessage(let user, let message) = all[0] else { Issue.record("not an inbox event"); return }
        #expect(user == "ana" && message.messageId == pushed.messageId)
        guard case .linkClicked(let clicked) = all[2] else { Issue.record("not a click event"); return }
        #expect(clicked.code == link.code && clicked.clicks == 1)
        // A message's own link also tells of its message, with the clicks, as a delivery change of its bulk.
        guard case .deliveryChanged(let bulkId, let infos, true, _, _) = all[5] else { Issue.record("not a delivery change"); return }
        #expect(bulkId == bulk.bulkId && infos.map(\.messageId) == [bulk.responses[0].messageId] && infos.first?.clicks == 2)
        #expect(try await h.engine.eventRange(applicationKey: h.creds.applicationKey).newest == 6)
        let read = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId)).deliveryInfoList.deliveryInfo
        #expect(read.map(\.clicks) == [2])
    }
}
