import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct CarrierTests {
    @Test func theHashIsStableAcrossRunsAndReleases() {
        // Pinned values: a change here changes every stored message's fate.
        #expect(StableHash.hash("", seed: 0) == StableHash.mix(0xcbf2_9ce4_8422_2325))
        #expect(StableHash.hash("m-1", seed: 1) == StableHash.hash("m-1", seed: 1))
        #expect(StableHash.hash("m-1", seed: 1) != StableHash.hash("m-1", seed: 2))
        #expect(StableHash.hash("m-1", seed: 1) != StableHash.hash("m-2", seed: 1))
        // FNV-1a 64 of "abc" then SplitMix64, computed independently.
        #expect(StableHash.hash("abc", seed: 0) == 3_018_304_574_923_447_344)
    }

    @Test func eachMessageMovesWaitingThenNetworkThenItsEnd() {
        let carrier = SimulatedCarrier(config: EngineConfig(impossibleShare: 0, uncertainShare: 0, stuckAtNetworkShare: 0))
        let sent = Date(epochMilliseconds: 1_000_000)
        for id in ["a", "b", "c", "d"] {
            let plan = carrier.plan(messageId: id)
            #expect((1...4).contains(plan.networkAfter))
            #expect(plan.finalAfter >= plan.networkAfter + 2 && plan.finalAfter <= plan.networkAfter + 10)
            #expect(carrier.status(messageId: id, sentAt: sent, at: sent) == .messageWaiting)
            #expect(carrier.status(messageId: id, sentAt: sent, at: sent.addingTimeInterval(plan.finalAfter - 0.01)) == .deliveredToNetwork)
            #expect(carrier.status(messageId: id, sentAt: sent, at: sent.addingTimeInterval(plan.networkAfter + 0.001)) == .deliveredToNetwork)
            #expect(carrier.status(messageId: id, sentAt: sent, at: sent.addingTimeInterval(plan.finalAfter + 0.001)) == .deliveredToTerminal)
        }
    }

    @Test func sharesDecideTheEnding() {
        let sent = Date(epochMilliseconds: 0)
        let later = sent.addingTimeInterval(60)
        let impossible = SimulatedCarrier(config: EngineConfig(impossibleShare: 1, uncertainShare: 0, stuckAtNetworkShare: 0))
        let uncertain = SimulatedCarrier(config: EngineConfig(impossibleShare: 0, uncertainShare: 1, stuckAtNetworkShare: 0))
        let stuck = SimulatedCarrier(config: EngineConfig(impossibleShare: 0, uncertainShare: 0, stuckAtNetworkShare: 1))
        #expect(impossible.status(messageId: "x", sentAt: sent, at: later) == .deliveryImpossible)
        #expect(uncertain.status(messageId: "x", sentAt: sent, at: later) == .deliveryUncertain)
        #expect(stuck.status(messageId: "x", sentAt: sent, at: sent.addingTimeInterval(86_400)) == .deliveredToNetwork)
        // The default shares over many ids: about 10 % impossible, 5 % uncertain, 5 % stuck.
        let carrier = SimulatedCarrier(config: EngineConfig())
        let outcomes = (0..<4000).map { carrier.plan(messageId: "msg-\($0)").outcome }
        let impossibleCount = outcomes.filter { $0 == .impossible }.count
        let delivered = outcomes.filter { $0 == .delivered }.count
        #expect((320...480).contains(impossibleCount))
        #expect((3000...3400).contains(delivered))
    }

    @Test func timeScaleSpeedsEverythingUp() {
        let normal = SimulatedCarrier(config: EngineConfig(impossibleShare: 0, uncertainShare: 0, stuckAtNetworkShare: 0))
        let fast = SimulatedCarrier(config: EngineConfig(timeScale: 10, impossibleShare: 0, uncertainShare: 0, stuckAtNetworkShare: 0))
        let sent = Date(epochMilliseconds: 0)
        let final = normal.plan(messageId: "k").finalAfter
        #expect(normal.status(messageId: "k", sentAt: sent, at: sent.addingTimeInterval(final / 10)) != .deliveredToTerminal)
        #expect(fast.status(messageId: "k", sentAt: sent, at: sent.addingTimeInterval(final / 10)) == .deliveredToTerminal)
    }

    @Test func invalidConfigAndTimeScaleVariableAreRefused() throws {
        #expect(throws: EngineError.self) { try EngineConfig(timeScale: 0).validate() }
        #expect(throws: EngineError.self) { try EngineConfig(impossibleShare: 0.7, uncertainShare: 0.5).validate() }
        #expect(throws: EngineError.self) { try EngineConfig(shortLinkBase: "not a url").validate() }
        #expect(try EngineConfig.timeScale(fromEnvironment: ["HERALD_SANDBOX_TIME_SCALE": "20"]) == 20)
        #expect(try EngineConfig.timeScale(fromEnvironment: [:]) == nil)
        #expect(throws: EngineError.self) { try EngineConfig.timeScale(fromEnvironment: ["HERALD_SANDBOX_TIME_SCALE": "fast"]) }
        #expect(throws: EngineError.self) { try EngineConfig.timeScale(fromEnvironment: ["HERALD_SANDBOX_TIME_SCALE": "-1"]) }
    }

    @Test func deliveryProgressIsReproducibleAcrossAReopen() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        // The same 40 messageIds on two platforms: one runs through, the other is closed and reopened halfway.
        let destinations = (0..<40).map {
            SendInvitationBody.Destination(address: "3859812\(String(format: "%05d", $0))", messageId: "m-\($0)")
        }
        let other = try await EngineHarness.make()
        defer { other.cleanUp() }
        let bulk = try await h.invite(destinations)
        let otherBulk = try await other.invite(destinations)
        var straight: [[DeliveryStatus]] = []
        var interrupted: [[DeliveryStatus]] = []
        var reopened = other.engine
        for step in 0..<6 {
            let at = Date(epochMilliseconds: 1_767_225_600_000 + Int64(step) * 3000)
            h.clock.set(at)
            other.clock.set(at)
            if step == 3 { reopened = try await other.reopen() }
            straight.append(try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId))
                .deliveryInfoList.deliveryInfo.map(\.deliveryStatus))
            interrupted.append(try await other.call(GetDeliveryInfos(secret: other.creds.secret, bulkId: otherBulk.bulkId),
                                                    on: reopened).deliveryInfoList.deliveryInfo.map(\.deliveryStatus))
        }
        #expect(straight[0].allSatisfy { $0 == .messageWaiting })
        #expect(straight[5].allSatisfy { $0 != .messageWaiting })
        #expect(straight[5].contains(.deliveredToTerminal))
        #expect(interrupted == straight)
        #expect(try await reopened.bootstrapSandbox() == other.creds)
    }
}
