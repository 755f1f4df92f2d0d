import Foundation
import HeraldLocks
import HeraldCore
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices

/// The change feed: one batch per move of the ledger, saying where each recipient came from, and
/// woken by other processes' commits (the data folder is watched) rather than by polling.
@Suite struct ChangeFeedTests {
    @Test func aBatchSaysWhereEachRecipientCameFromAndNothingOldIsPublished() async throws {
        let h = try await WorkspaceHarness()
        let old = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(1)])
        try await h.workspace.feed.start()                    // what is there already is not news
        #expect(try await h.workspace.feed.check() == nil)
        let sent = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(2), WorkspaceHarness.mobile(3)])
        let bulk = try #require(sent.bulkId)
        let first = try #require(try await h.workspace.feed.check())
        #expect(first.bulks.map(\.bulkId) == [bulk])
        #expect(first.deliveries.count == 2 && first.deliveries.allSatisfy { $0.bulkId == bulk && $0.from == nil })
        _ = try h.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: WorkspaceHarness.mobile(2), messageId: nil, status: .deliveredToTerminal),
        ])
        let second = try #require(try await h.workspace.feed.check())
        #expect(second.previous == first.sequence)
        #expect(second.deliveries.map(\.to) == [.deliveredToTerminal])
        #expect(second.deliveries.first?.from == first.deliveries.first { $0.address == second.deliveries[0].address }?.to)
        #expect(!second.deliveries.contains { $0.bulkId == old.bulkId })
    }

    @Test func anotherProcessesCommitWakesTheFeedWithoutPolling() async throws {
        // Polling once a minute (also where the folder cannot be watched): only the watch can deliver
        // this before the test's limit.
        var config = WorkspaceHarness.config()
        config.feedInterval = 60
        let h = try await WorkspaceHarness(config: config)
        let events = h.workspace.bus.stream()
        let feed = h.workspace.feed
        try await feed.start()
        let running = Task { await feed.run(fallbackInterval: 60) }
        defer { running.cancel() }
        let other = try await h.reopen(config: config)
        defer { other.close() }
        let sent = try await other.invites.invite(numbers: [WorkspaceHarness.mobile(9)])
        let waiter = Task { () -> LedgerChange? in
            for await event in events {
                if case .ledgerChanged(let change) = event, !change.bulks.isEmpty { return change }
            }
            return nil
        }
        // (How soon is measured by the folder watch's own test: here the test pool may be starved.)
        let timeout = Task { try await Task.sleep(nanoseconds: 50_000_000_000); waiter.cancel() }
        let arrived = await waiter.value
        timeout.cancel()
        let change = try #require(arrived, "no batch within 50 s although the feed polls only every 60 s")
        #expect(change.bulks.map(\.bulkId) == [sent.bulkId].compactMap { $0 })
    }

    @Test func aWakeSignalEndsAWaitEarlyAndIsKeptWhenNobodyWaits() async {
        let wake = WakeSignal()
        wake.signal()                                         // nobody waiting yet: kept
        #expect(await wake.wait(upTo: 5))
        let started = Date()
        #expect(await wake.wait(upTo: 0.05) == false)         // nothing pending: times out
        #expect(Date().timeIntervalSince(started) >= 0.04)
        Task { try? await Task.sleep(nanoseconds: 50_000_000); wake.signal() }
        let woken = Date()
        #expect(await wake.wait(upTo: 10))
        #expect(Date().timeIntervalSince(woken) < 5)
    }
}
