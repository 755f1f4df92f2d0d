import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldServices
import HeraldEmbedded

@Suite struct DeliveryTrackerTests {
    /// A tracker over a counting wrapper of the workspace's platform.
    func tracker(_ h: WorkspaceHarness, settings: TrackerSettings = .default) -> (DeliveryTracker, CountingPlatform) {
        let counting = CountingPlatform(h.workspace.platform)
        let t = DeliveryTracker(platform: counting, ledger: h.workspace.ledger, bus: h.workspace.bus, clock: h.clock,
                                settings: settings)
        return (t, counting)
    }

    /// A colleague's bulk learnt from a server's events is kept with the message its announcement carried, so
    /// Deliveries shows "team · <message>" instead of an empty cell.
    @Test func aColleaguesBulkIsKeptWithItsMessage() async throws {
        let h = try await WorkspaceHarness()
        let (tracker, _) = tracker(h)
        let info = DeliveryInfo(address: "385911111111", messageId: "m-1", clientCorrelator: "team-bulk", deliveryStatus: .messageWaiting, price: 0)
        #expect(await tracker.applyPushed([info], bulkId: "team-bulk", messageText: "Hi {RECEIVER_NAME}, come along: <>") == 1)
        let kept = try #require(try h.workspace.ledger.bulk(id: "team-bulk"))
        #expect(!kept.sentHere && kept.messageText == "Hi {RECEIVER_NAME}, come along: <>")
        // A later event without the text keeps it.
        _ = await tracker.applyPushed([DeliveryInfo(address: "385911111111", messageId: "m-1", clientCorrelator: "team-bulk",
                                                    deliveryStatus: .deliveredToTerminal, price: 0)], bulkId: "team-bulk")
        #expect(try h.workspace.ledger.bulk(id: "team-bulk")?.messageText == "Hi {RECEIVER_NAME}, come along: <>")
    }

    @Test func pollsPerBulkOnItsScheduleAndPublishesChangesUntilFinal() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(6)
        let sent = try await h.workspace.invites.invite(people: people)
        let bulkId = try #require(sent.bulkId)
        let (tracker, counting) = tracker(h)
        try await h.workspace.feed.start()
        let events = h.workspace.bus.stream()
        await tracker.refresh()

        // Nothing is due before the interval.
        #expect(await tracker.runDuePasses().polled.isEmpty)
        #expect(await tracker.nextDueDate() == h.clock.now().addingTimeInterval(8))

        var changes: [DeliveryChange] = []
        var passes = 0
        while !(await tracker.isSettled(bulkId: bulkId)) && passes < 40 {
            h.clock.advance(by: 8)
            let report = await tracker.tick()
            changes += report.changes
            passes += report.polled.count
        }
        #expect(counting.count("deliveryInfos") == passes)
        #expect(passes <= 10 + 20)
        #expect(!changes.isEmpty)
        #expect(changes.allSatisfy { $0.bulkId == bulkId && $0.from != $0.to })
        let rows = try h.workspace.ledger.recipients(ofBulk: bulkId)
        // Every recipient ended final, or stuck at the network once the follow-ups were spent.
        #expect(rows.allSatisfy { $0.status.isFinal || $0.status == .deliveredToNetwork })
        // The ledger agrees with the engine.
        for row in rows {
            let engineStatus = try await h.workspace.engine.deliveryStatus(
                applicationKey: h.workspace.credentials.applicationKey, messageId: try #require(row.messageId))
            if row.status.isFinal { #expect(engineStatus == row.status) }
        }
        // The change feed publishes where every recipient that changed ended, in one batch.
        let batch = try #require(try await h.workspace.feed.check())
        var published: LedgerChange?
        for await event in events {
            if case .ledgerChanged(let change) = event { published = change; break }
        }
        #expect(published == batch)
        let changed = Set(changes.map(\.address))
        #expect(Set(batch.deliveries.map(\.address)) == changed)
        for delivery in batch.deliveries {
            let row = try #require(rows.first { $0.id == delivery.invitationId })
            #expect(delivery.to == row.status && delivery.bulkId == bulkId)
        }
    }

    @Test func exactlyOneCallPerDueBulkFor100Bulks() async throws {
        let h = try await WorkspaceHarness()
        for i in 0..<100 {
            _ = try await h.workspace.invites.invite(numbers: [WorkspaceHarness.mobile(i)])
        }
        let (tracker, counting) = tracker(h)
        await tracker.refresh()
        #expect(await tracker.trackedBulks().count == 100)
        h.clock.advance(by: 8)
        let started = Date()
        let report = await tracker.runDuePasses()
        let elapsed = Date().timeIntervalSince(started)
        #expect(report.polled.count == 100)
        #expect(Set(report.polled).count == 100)
        #expect(counting.count("deliveryInfos") == 100)
        #expect(report.platformCalls == 100)
        // Nothing is due again until the interval has passed.
        #expect(await tracker.runDuePasses().platformCalls == 0)
        print("tracker pass over 100 bulks: \(report.platformCalls) deliveryInfos calls, \(Int(elapsed * 1000)) ms")
    }

    @Test func tooManyRequestsHonoursRetryAfterInTheNextDueTime() async throws {
        let h = try await WorkspaceHarness()
        _ = try await h.workspace.invites.invite(people: try h.people(2))
        _ = try await h.workspace.invites.invite(people: try h.people(2, from: 10))
        let (tracker, counting) = tracker(h)
        await tracker.refresh()
        h.clock.advance(by: 8)
        await h.workspace.engine.injectFaults(.tooManyRequests(retryAfter: 42), pathPrefix: "/1/smsmessaging")
        let report = await tracker.runDuePasses()
        // The pass stops at the 429: the second bulk is not hammered.
        #expect(counting.count("deliveryInfos") == 1)
        #expect(report.backingOffUntil == h.clock.now().addingTimeInterval(42))
        #expect(await tracker.nextDueDate() == h.clock.now().addingTimeInterval(42))
        #expect(await tracker.state().backingOffUntil == h.clock.now().addingTimeInterval(42))
        h.clock.advance(by: 41)
        #expect(await tracker.runDuePasses().platformCalls == 0)
        h.clock.advance(by: 1)
        #expect(await tracker.runDuePasses().polled.count == 2)
    }

    @Test func serverErrorsAndTimeoutsBackOffExponentially() async throws {
        let h = try await WorkspaceHarness()
        _ = try await h.workspace.invites.invite(people: try h.people(1))
        let (tracker, _) = tracker(h)
        await tracker.refresh()
        h.clock.advance(by: 8)
        await h.workspace.engine.injectFaults(.serverError(status: 503), count: 2, pathPrefix: "/1/smsmessaging")
        await h.workspace.engine.injectFaults(.timeout, count: 1, pathPrefix: "/1/smsmessaging")
        var waits: [TimeInterval] = []
        for _ in 0..<3 {
            let report = await tracker.runDuePasses()
            let until = try #require(report.backingOffUntil)
            waits.append(until.timeIntervalSince(h.clock.now()))
            h.clock.set(until)
        }
        #expect(waits == [8, 16, 32])
        let ok = await tracker.runDuePasses()
        #expect(ok.polled.count == 1)
        #expect(ok.backingOffUntil == nil)
        // Failed calls did not spend passes.
        #expect(await tracker.trackedBulks().first?.passesDone == 1)
    }

    @Test func aBulkLeftOnlyAtTheNetworkIsFollowedUpSlower() async throws {
        var engine = EngineConfig()
        engine.impossibleShare = 0
        engine.uncertainShare = 0
        engine.stuckAtNetworkShare = 1
        let h = try await WorkspaceHarness(engine: engine)
        let sent = try await h.workspace.invites.invite(people: try h.people(3))
        let (tracker, _) = tracker(h, settings: TrackerSettings(interval: 8, passes: 3, followUpFactor: 4, followUpPasses: 2))
        await tracker.refresh()
        h.clock.advance(by: 60)  // the network has every message by now
        #expect(await tracker.runDuePasses().polled.count == 1)
        let bulk = try #require(await tracker.trackedBulks().first)
        #expect(bulk.onlyAtNetwork)
        // At the network is invited in the one vocabulary: followed up, but nothing is counted pending.
        #expect(bulk.pendingRecipients == 0)
        #expect(bulk.dueAt == h.clock.now().addingTimeInterval(32))
        // Follow-ups go beyond the 3 normal passes, then stop.
        var total = 1
        for _ in 0..<10 {
            h.clock.advance(by: 32)
            total += await tracker.runDuePasses().polled.count
        }
        #expect(total == 5)
        #expect(await tracker.isSettled(bulkId: try #require(sent.bulkId)))
    }

    @Test func resumesFromTheLedgerAfterARestart() async throws {
        // A slow carrier: nothing reaches the network within the first passes.
        var engine = EngineConfig()
        engine.networkDelay = 50...60
        let h = try await WorkspaceHarness(engine: engine)
        let sent = try await h.workspace.invites.invite(people: try h.people(3))
        let bulkId = try #require(sent.bulkId)
        let (first, _) = tracker(h)
        await first.refresh()
        h.clock.advance(by: 8)
        #expect(await first.runDuePasses().polled == [bulkId])

        // A new process: the schedule comes from the ledger (passes done, next poll time).
        let reopened = try await h.reopen(engine: engine)
        let second = DeliveryTracker(platform: reopened.platform, ledger: reopened.ledger, bus: reopened.bus, clock: h.clock)
        await second.refresh()
        let bulk = try #require(await second.trackedBulks().first)
        let stored = try #require(try reopened.ledger.bulk(id: bulkId))
        #expect(bulk.passesDone == 1)
        #expect(bulk.dueAt == stored.nextPollAt)
        let due = try #require(bulk.dueAt)
        #expect(due == h.clock.now().addingTimeInterval(8))
        #expect(await second.runDuePasses().polled.isEmpty)
        h.clock.set(due)
        #expect(await second.runDuePasses().polled == [bulkId])
        #expect(try reopened.ledger.bulk(id: bulkId)?.passesDone == 2)
    }

    @Test func picksUpABulkAnotherProcessWroteWithinARescan() async throws {
        let h = try await WorkspaceHarness()
        let (tracker, counting) = tracker(h)
        let events = h.workspace.bus.stream()
        await tracker.tick()
        #expect(await tracker.trackedBulks().isEmpty)

        let other = try await h.reopen()
        let p = try h.person("Other", numbers: [WorkspaceHarness.mobile(7)])
        let sent = try await other.invites.invite(person: p)
        let bulkId = try #require(sent.bulkId)

        // Within the rescan interval nothing is read again; after it, the bulk is there.
        h.clock.advance(by: 0.5)
        await tracker.tick()
        #expect(await tracker.trackedBulks().isEmpty)
        h.clock.advance(by: 0.5)
        await tracker.tick()
        #expect(await tracker.trackedBulks().map(\.bulkId) == [bulkId])
        var watched: [String] = []
        for await event in events {
            if case .trackerState(let state) = event { watched = state.bulks.map(\.bulkId); break }
        }
        #expect(watched == [bulkId])

        // When the other process polls it, this one sees the change without calling the platform.
        let otherTracker = DeliveryTracker(platform: other.platform, ledger: other.ledger, bus: other.bus, clock: h.clock)
        h.clock.advance(by: 30)
        await otherTracker.refresh()
        #expect(await otherTracker.runDuePasses().polled == [bulkId])
        await tracker.refresh()
        #expect(await tracker.runDuePasses().polled.isEmpty)
        #expect(counting.count("deliveryInfos") == 0)
        #expect(try h.workspace.ledger.bulk(id: bulkId)?.passesDone == 1)
    }
}
