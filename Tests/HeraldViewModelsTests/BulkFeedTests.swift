import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels
import HeraldEmbedded

/// The Deliveries pane's data apart from the screen: a read that fails is reported and the rows read before stay,
/// a reload asked while one is being read is dropped, and what the feed hands out does not move under the holder.
@Suite("Bulk feed")
struct BulkFeedTests {
    /// The ledger's snapshots, failing while `failing` is set, counting the reads that reached the ledger.
    nonisolated final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var failingNow = false
        private var readsNow = 0
        var failing: Bool {
            get { lock.withLock { failingNow } }
            set { lock.withLock { failingNow = newValue } }
        }
        var reads: Int { lock.withLock { readsNow } }

        func source(_ book: ContactBook) -> BulkSource {
            BulkSource(snapshot: { [self] in
                let fail = lock.withLock { readsNow += 1; return failingNow }
                if fail { throw Unreadable() }
                return try await book.deliveriesSnapshot()
            }, recipients: { try await book.recipients(ofBulk: $0).map(RecipientRow.init) })
        }
    }

    struct Unreadable: Error {}

    private func send(_ ws: WorkspaceHarness, _ numbers: [String]) async throws -> String {
        try #require(try await ws.workspace.invites.invite(numbers: numbers).bulkId)
    }

    @Test func aFailedReadIsShownAndTheRowsReadBeforeStayUntilTheNextReadSucceeds() async throws {
        let ws = try await WorkspaceHarness.screens()
        let first = try await send(ws, ["+385911111111"])
        ws.clock.advance(by: 60)
        let second = try await send(ws, ["+385912222222", "+385913333333"])
        let ledger = Ledger()
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let toasts = ToastBoard(clock: ws.clock)
        let vm = ui {
            DeliveriesViewModel(book: ws.book, invites: ws.workspace.invites, search: ws.workspace.deliveries,
                                context: effects.context(toasts: toasts, clock: ws.clock), source: ledger.source(ws.book))
        }
        await effects.settle()
        #expect(vm.visibleBulks.map(\.bulkId) == [second, first])
        ui { vm.moveCursor(to: 1) }

        ledger.failing = true
        ui { vm.reload() }
        await effects.settle()
        #expect(vm.loadError?.hasPrefix("could not read the ledger: ") == true)
        #expect(vm.visibleBulks.map(\.bulkId) == [second, first], "the rows read before stay")
        #expect(vm.currentBulk?.bulkId == first, "and the cursor on them")
        #expect(toasts.notes.isEmpty, "the failure is shown in the pane, not as a toast")

        ledger.failing = false
        ui { vm.reload() }
        await effects.settle()
        #expect(vm.loadError == nil)
        #expect(vm.currentBulk?.bulkId == first)
        #expect(vm.snapshotsRead == 3)
        #expect(ui.violations.isEmpty)
    }

    @Test func aReloadAskedWhileOneIsBeingReadIsDropped() async throws {
        let ws = try await WorkspaceHarness.screens()
        _ = try await send(ws, ["+385911111111"])
        let ledger = Ledger()
        let effects = EffectPump()
        let feed = BulkFeed(source: ledger.source(ws.book), effects: effects.queue, clock: ws.clock)
        feed.reload()
        feed.reload()                       // overlapping: dropped, as k9s drops an update while one runs
        feed.reload()
        #expect(effects.queue.inFlight == 1)
        await effects.settle()
        #expect(ledger.reads == 1 && feed.snapshotsRead == 1)
        #expect(feed.bulks.count == 1 && feed.sequence != nil)
        feed.reload()                       // the read is back: a new one goes ahead
        await effects.settle()
        #expect(ledger.reads == 2 && feed.snapshotsRead == 2)
    }

    @Test func theRowsHandedOutAreACopyThatLaterBatchesLeaveAlone() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        let effects = EffectPump()
        let feed = BulkFeed(source: BulkSource(book: ws.book), effects: effects.queue, clock: ws.clock)
        feed.reload()
        await effects.settle()
        _ = try await ws.workspace.feed.check()       // the change feed starts where the snapshot stands
        let handedOut = feed.bulks
        let before = try #require(handedOut.first)
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
        ])
        let change = try #require(try await ws.workspace.feed.check())
        feed.fold(change)
        #expect(feed.bulks.first?.invited == before.invited + 1, "the feed moved on")
        #expect(handedOut.first == before, "what it handed out did not")
        #expect(effects.queue.inFlight == 0, "a batch that continues the snapshot is folded without a read")
    }
}
