import Foundation
import HeraldCore
import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels

@Suite("Deliveries view-model")
struct DeliveriesViewModelTests {
    private func make(_ ws: ShellWorkspace, effects: ShellEffects = ShellEffects(), toasts: ToastBoard? = nil) -> DeliveriesViewModel {
        DeliveriesViewModel(book: ws.book, invites: ws.workspace.invites, effects: effects.queue,
                            toasts: toasts ?? ToastBoard(clock: ws.clock), clock: ws.clock)
    }

    /// Sends one bulk to these numbers and returns its id.
    private func send(_ ws: ShellWorkspace, _ numbers: [String]) async throws -> String {
        try #require(try await ws.workspace.invites.invite(numbers: numbers).bulkId)
    }

    @Test func listsBulksWithCountsPerStatus() async throws {
        let ws = try await ShellWorkspace()
        let bulk = try await send(ws, ["+385911111111", "+385912222222", "+385913333333"])
        let vm = make(ws)
        let row = try #require(vm.bulks.first)
        #expect(row.bulkId == bulk)
        #expect(row.recipients == 3)
        #expect(row.invited + row.pending + row.impossible + row.other == 3)
    }

    @Test func deliveryEventsUpdateTheCountsAndLightTheChangedCellsForAMoment() async throws {
        let ws = try await ShellWorkspace()
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        let vm = make(ws)
        let before = try #require(vm.bulks.first)
        let changes = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible),
        ])
        #expect(changes.count == 2)
        for change in changes {
            #expect(vm.handle(event: .deliveryChanged(DeliveryChange(bulkId: bulk, address: change.msisdn, messageId: change.messageId,
                                                                     personId: nil, from: change.from, to: change.to, at: ws.clock.now()))))
        }
        #expect(vm.isStale)
        vm.refreshIfNeeded()
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
    }

    @Test func openingABulkShowsRecipientsAndFiltersByStatus() async throws {
        let ws = try await ShellWorkspace()
        try ws.add("Ana", "Horvat", "091 111 1111")
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible)])
        let vm = make(ws)
        vm.open()
        #expect(vm.openBulkId == bulk)
        #expect(vm.visibleRecipients.map(\.name) == ["Ana Horvat", "—"])
        vm.setFilter(.impossible)
        #expect(vm.visibleRecipients.map(\.number) == ["+385912222222"])
        vm.setFilter(.invited)
        #expect(vm.visibleRecipients.isEmpty)
        #expect(vm.close() && vm.openBulkId == nil)
        #expect(vm.visibleBulks.isEmpty)          // no bulk has invited recipients
        vm.setFilter(.impossible)
        #expect(vm.visibleBulks.map(\.bulkId) == [bulk])
        vm.cycleFilter()
        #expect(vm.filter == .all)
    }

    @Test func aBulkWrittenByAnotherProcessAppearsOnTheTrackersEvent() async throws {
        let ws = try await ShellWorkspace()
        let vm = make(ws)
        #expect(vm.bulks.isEmpty)
        let other = try await Workspace.open(dataDirectory: ws.folder, config: WorkspaceConfig(region: "HR"), clock: ws.clock)
        let bulk = try #require(try await other.invites.invite(numbers: ["+385911111111"]).bulkId)
        other.close()
        await ws.workspace.tracker.refresh()     // the rescan publishes bulksDiscovered on the bus
        #expect(vm.handle(event: .bulksDiscovered(bulkIds: [bulk])))
        vm.refreshIfNeeded()
        #expect(vm.bulks.map(\.bulkId) == [bulk])
        #expect(vm.isHighlighted(bulk, .row, now: ws.clock.now()))
    }

    @Test func trackerStateShowsTheCountdownAndPassesLeft() async throws {
        let ws = try await ShellWorkspace()
        let bulk = try await send(ws, ["+385911111111"])
        let vm = make(ws)
        #expect(vm.trackerLine(now: ws.clock.now()).contains("idle"))
        let now = ws.clock.now()
        _ = vm.handle(event: .trackerState(TrackerState(nextPassAt: now.addingTimeInterval(3),
                                                        bulks: [.init(bulkId: bulk, passesLeft: 7, pendingRecipients: 1)])))
        #expect(vm.trackerLine(now: now) == "next pass in 3 s · 1 bulk watched, up to 7 passes left")
        #expect(vm.passesLeft(bulk) == 7)
        let tick = try #require(vm.nextDeadline(now: now))
        #expect(tick.timeIntervalSince(now) <= 1.01)
    }

    @Test func resendAsksFirstAndSendsOnlyWhatFailed() async throws {
        let ws = try await ShellWorkspace()
        let bulk = try await send(ws, ["+385911111111", "+385912222222"])
        _ = try ws.workspace.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveryImpossible),
        ])
        let effects = ShellEffects()
        let toasts = ToastBoard(clock: ws.clock)
        let vm = make(ws, effects: effects, toasts: toasts)
        vm.requestResend()
        #expect(vm.confirmation?.numbers == ["+385912222222"])
        vm.confirmResend()
        await effects.settle()
        #expect(try ws.workspace.ledger.bulks().count == 2)
        #expect(toasts.notes.last?.text.hasPrefix("resent to 1 number") == true)
        #expect(vm.bulks.count == 2)
    }
}
