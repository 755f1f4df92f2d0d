import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels
import HeraldEmbedded

@Suite("Deliveries view-model")
struct DeliveriesViewModelTests {
    /// A view-model built and driven on the UI side; its first snapshot read.
    private func make(_ ws: WorkspaceHarness, ui: UISide = UISide(), effects: EffectPump? = nil,
                      toasts: ToastBoard? = nil) async -> DeliveriesViewModel {
        let effects = effects ?? EffectPump(ui: ui)
        let vm = ui {
            DeliveriesViewModel(book: ws.book, invites: ws.workspace.invites, search: ws.workspace.deliveries,
                                context: effects.context(toasts: toasts ?? ToastBoard(clock: ws.clock), clock: ws.clock))
        }
        await effects.settle()
        return vm
    }

    /// Sends one bulk to these numbers and returns its id.
    private func send(_ ws: WorkspaceHarness, _ numbers: [String]) async throws -> String {
        try #require(try await ws.workspace.invites.invite(numbers: numbers).bulkId)
    }

    @Test func listsBulksWithCountsPerStatus() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111", "+385912222222", "+385913333333"])
        let ui = UISide()
        let vm = await make(ws, ui: ui)
        let row = try #require(vm.bulks.first)
        #expect(row.bulkId == bulk)
        #expect(row.recipients == 3)
        #expect(row.invited + row.pending + row.impossible + row.other == 3)
        #expect(ui.violations.isEmpty)
    }

    @Test func feedBatchesMoveTheCountsWithoutAQueryAndLightTheChangedCells() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        _ = try await ws.workspace.feed.check()       // the feed starts where the snapshot stands
        let before = try #require(vm.bulks.first)
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible),
        ])
        let change = try #require(try await ws.workspace.feed.check())
        #expect(change.deliveries.count == 2)
        #expect(ui { vm.handle(event: .ledgerChanged(change)) })
        #expect(effects.queue.inFlight == 0)            // folded in memory: nothing read again
        #expect(vm.snapshotsRead == 1)
        let after = try #require(vm.bulks.first)
        #expect(after.invited == 1 && after.impossible == 1)
        let now = ws.clock.now()
        #expect(vm.isHighlighted(bulk, .invited, now: now))
        #expect(vm.isHighlighted(bulk, .impossible, now: now))
        #expect(before.pending == 0 || vm.isHighlighted(bulk, .pending, now: now))
        #expect(!vm.isHighlighted(bulk, .row, now: now))
        let deadline = try #require(vm.nextDeadline(now: now))
        #expect(abs(deadline.timeIntervalSince(now) - 1.5) < 0.01)
        ws.clock.advance(by: 1.6)
        #expect(vm.tick(now: ws.clock.now()))
        #expect(!vm.isHighlighted(bulk, .invited, now: ws.clock.now()))
        #expect(vm.highlights.isEmpty)
        #expect(ui.violations.isEmpty)
    }

    @Test func aBatchThatDoesNotContinueTheSnapshotReadsAFreshOne() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111"])
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        let stale = LedgerChange(previous: 0, sequence: (vm.sequence ?? 0) + 5, deliveries: [
            DeliveryChange(bulkId: bulk, address: "385911111111", messageId: nil, personId: nil, from: nil,
                           to: .deliveredToTerminal, at: ws.clock.now()),
        ], bulks: [])
        _ = ui { vm.handle(event: .ledgerChanged(stale)) }
        await effects.settle()
        #expect(vm.snapshotsRead == 2)
        #expect(vm.bulks.first?.recipients == 1)          // not counted twice
        #expect(ui.violations.isEmpty)
    }

    @Test func openingABulkShowsRecipientsAndFiltersByStatus() async throws {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Ana", "Horvat", "091 111 1111")
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible)])
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let vm = await make(ws, ui: ui, effects: effects)
        ui { vm.open() }
        #expect(vm.openBulkId == bulk && vm.isLoadingRecipients)
        await effects.settle()
        #expect(vm.visibleRecipients.map(\.name) == ["Ana Horvat", "—"])
        ui { vm.setFilter(.failed) }
        #expect(vm.visibleRecipients.map(\.number) == ["+385912222222"])
        ui { vm.setFilter(.invited) }
        #expect(vm.visibleRecipients.isEmpty)
        #expect(ui { vm.close() } && vm.openBulkId == nil)
        #expect(vm.visibleBulks.isEmpty)          // no bulk has invited recipients
        ui { vm.setFilter(.failed) }
        #expect(vm.visibleBulks.map(\.bulkId) == [bulk])
        ui { vm.cycleFilter() }
        #expect(vm.filter == .all)
        #expect(ui.violations.isEmpty)
    }

    @Test func aBulkWrittenByAnotherProcessArrivesThroughTheFeed() async throws {
        let ws = try await WorkspaceHarness.screens()
        let ui = UISide()
        let vm = await make(ws, ui: ui)
        #expect(vm.bulks.isEmpty)
        _ = try await ws.workspace.feed.check()
        let other = try await Workspace.open(dataDirectory: ws.folder, config: WorkspaceConfig(region: "HR"), clock: ws.clock)
        let bulk = try #require(try await other.invites.invite(numbers: ["+385911111111"]).bulkId)
        other.close()
        let change = try #require(try await ws.workspace.feed.check())
        #expect(change.bulks.map(\.bulkId) == [bulk])
        #expect(ui { vm.handle(event: .ledgerChanged(change)) })
        #expect(vm.bulks.map(\.bulkId) == [bulk])
        #expect(vm.bulks.first?.recipients == 1)
        #expect(vm.isHighlighted(bulk, .row, now: ws.clock.now()))
        #expect(ui.violations.isEmpty)
    }

    @Test func trackerStateShowsTheCountdownAndPassesLeft() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111"])
        let vm = await make(ws)
        #expect(vm.trackerLine(now: ws.clock.now()) == "tracker starting…", "no state yet is not idle")
        _ = vm.handle(event: .trackerState(TrackerState(nextPassAt: nil, bulks: [])))
        #expect(vm.trackerLine(now: ws.clock.now()) == "tracker idle: every bulk settled")
        let now = ws.clock.now()
        _ = vm.handle(event: .trackerState(TrackerState(nextPassAt: now.addingTimeInterval(3),
                                                        bulks: [.init(bulkId: bulk, passesLeft: 7, pendingRecipients: 1)])))
        #expect(vm.trackerLine(now: now).hasPrefix("next pass at "))
        #expect(vm.trackerLine(now: now).hasSuffix(" · 1 bulk watched, up to 7 passes left"))
        #expect(vm.passesLeft(bulk) == 7)
        let tick = try #require(vm.nextDeadline(now: now))
        #expect(tick.timeIntervalSince(now) <= 1.01)
    }

    @Test func resendAsksFirstAndSendsOnlyWhatFailed() async throws {
        let ws = try await WorkspaceHarness.screens()
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible),
        ])
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let toasts = ToastBoard(clock: ws.clock)
        let vm = await make(ws, ui: ui, effects: effects, toasts: toasts)
        _ = try await ws.workspace.feed.check()
        ui { vm.requestResend() }
        await effects.settle()
        #expect(vm.confirmation?.numbers == ["+385912222222"])
        ui { vm.confirmResend() }
        await effects.settle()
        #expect(try ws.workspace.ledger.bulks().count == 2)
        // The toast names the new bulk, and the new bulk links back to the one it resent.
        let resent = try #require(try ws.workspace.ledger.bulks().first { $0.bulkId != bulk })
        #expect(resent.resendOf == bulk)
        #expect(toasts.notes.last?.text == "resent to 1 number: new bulk \(resent.bulkId.prefix(8)), a resend of \(bulk.prefix(8))")
        let change = try #require(try await ws.workspace.feed.check())
        _ = ui { vm.handle(event: .ledgerChanged(change)) }
        #expect(vm.bulks.count == 2)
        ui { vm.reload() }
        await effects.settle()
        let shown = try #require(vm.bulks.first { $0.bulkId == resent.bulkId })
        #expect(shown.resendOf == bulk && shown.shownMessage.hasPrefix("↻ \(bulk.prefix(8)) · "))
        #expect(ui.violations.isEmpty)
    }

    @Test func rResendsWhatFailedAmongTheSelectedBulksOrTheSelectedRecipients() async throws {
        let ws = try await WorkspaceHarness.screens()
        let first = try await send(ws, ["+385911111111", "+385912222222"])
        ws.clock.advance(by: 60)
        let second = try await send(ws, ["+385913333333"])
        ws.clock.advance(by: 60)
        let third = try await send(ws, ["+385914444444"])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: first, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveryImpossible),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible),
        ])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: second, [
            DeliveryUpdate(address: "385913333333", messageId: nil, status: .deliveryImpossible),
        ])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: third, [
            DeliveryUpdate(address: "385914444444", messageId: nil, status: .deliveryImpossible),
        ])
        let ui = UISide()
        let effects = EffectPump(ui: ui)
        let toasts = ToastBoard(clock: ws.clock)
        let vm = await make(ws, ui: ui, effects: effects, toasts: toasts)
        // Newest first: select the second and the first bulk, not the third.
        ui {
            vm.moveCursor(to: 1); vm.toggleSelection()
            vm.moveCursor(to: 2); vm.toggleSelection()
            vm.requestResend()
        }
        await effects.settle()
        #expect(vm.selectedBulks == [first, second])
        #expect(vm.confirmation?.numbers == ["+385911111111", "+385912222222", "+385913333333"])
        #expect(vm.confirmation?.what == "in 2 selected bulks")
        ui { vm.cancelResend() }

        // In the open first bulk, one selected recipient of the two that failed.
        ui { vm.moveCursor(to: 2); vm.open() }
        await effects.settle()
        let at = try #require(vm.visibleRecipients.firstIndex { $0.number == "+385912222222" })
        ui { vm.moveCursor(to: at); vm.toggleSelection(); vm.requestResend() }
        #expect(vm.confirmation?.numbers == ["+385912222222"])
        #expect(vm.confirmation?.what == "among 1 selected recipient")
        ui { vm.confirmResend() }
        await effects.settle()
        let resent = try #require(try ws.workspace.ledger.bulks().first { ![first, second, third].contains($0.bulkId) })
        #expect(resent.resendOf == first)
        #expect(vm.selectedBulks.isEmpty && vm.selectedRecipients.isEmpty)
        #expect(ui.violations.isEmpty)
    }
}
