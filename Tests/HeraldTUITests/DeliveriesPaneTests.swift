import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels
import HeraldEmbedded

/// The Deliveries pane drawn on the in-memory canvas.
struct DeliveriesPaneTests {
    @Test func bulksShowCountsAProgressBarAndLitChanges() async throws {
        let test = try await WorkspaceHarness.screens()
        defer { withExtendedLifetime(test) {} }
        let clock = test.clock, ws = test.workspace
        let numbers = ["+385911111111", "+385912222222", "+385913333333", "+385914444444"]
        let bulk = try #require(try await ws.invites.invite(numbers: numbers).bulkId)
        let effects = EffectPump()
        let vm = DeliveriesViewModel(book: ws.book, invites: ws.invites, search: ws.deliveries,
                                     context: effects.context(toasts: ToastBoard(clock: clock), clock: clock))
        let pane = DeliveriesPane(viewModel: vm, clock: clock)
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        func draw(height: Int = 10) -> Canvas {
            var canvas = Canvas(size: Size(width: 80, height: height))
            pane.layout(in: canvas.bounds)
            pane.render(into: &canvas, in: canvas.bounds, theme: theme)
            return canvas
        }
        #expect(draw().snapshot().contains("Reading the ledger…"))
        await effects.settle()
        _ = try await ws.feed.check()
        _ = try ws.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveredToTerminal),
            DeliveryUpdate(address: "385913333333", messageId: nil, status: .deliveryImpossible),
            DeliveryUpdate(address: "385914444444", messageId: nil, status: .messageWaiting),
        ])
        let change = try #require(try await ws.feed.check())
        #expect(pane.handle(serviceEvent: .ledgerChanged(change)))
        let canvas = draw()
        let lines = canvas.snapshot().components(separatedBy: "\n")
        #expect(lines[0].contains("Deliveries — 1 bulk · filter: all"))
        #expect(lines[2].contains("Bulk") && lines[2].contains("Progress"))
        let row = lines[3]
        #expect(row.hasPrefix("│" + String(bulk.prefix(10))))
        #expect(row.contains("      4       2       1      1 "))
        // the bar: half delivered, a quarter pending, a quarter failed (16 cells)
        let barAt = try #require(canvas.find("████████"))
        let roles = (0..<16).compactMap { canvas.cell(x: barAt.x + $0, y: barAt.y)?.style.role }
        #expect(roles.prefix(8).allSatisfy { $0 == .statusDelivered })
        #expect(roles[8..<12].allSatisfy { $0 == .statusPending })
        #expect(roles[12..<16].allSatisfy { $0 == .statusFailed })
        // the changed counts are lit, then go out after 1.5 s
        let invitedAt = try #require(canvas.find("   2 ")).x + 3
        #expect(canvas.cell(x: invitedAt, y: 3)?.style.role == .changed)
        clock.advance(by: 1.6)
        #expect(pane.tick(now: clock.now()))
        #expect(draw().cell(x: invitedAt, y: 3)?.style.role == .statusDelivered)
        // enter opens the bulk: recipients with their status
        #expect(pane.handle(action: .open))
        await effects.settle()
        let opened = draw(height: 14).snapshot()
        #expect(opened.contains("+385913333333"))
        #expect(opened.contains("failed"))
        #expect(pane.handle(action: .filter))        // all → pending
        #expect(draw(height: 14).snapshot().contains("+385914444444"))
        #expect(!draw(height: 14).snapshot().contains("+385913333333"))
    }

    @Test func sSortsTheBulksAndEveryKeyTheHelpListsHereDoesSomething() async throws {
        let test = try await WorkspaceHarness.screens()
        defer { withExtendedLifetime(test) {} }
        let clock = test.clock, ws = test.workspace
        let older = try #require(try await ws.invites.invite(numbers: ["+385911111111", "+385912222222"]).bulkId)
        clock.advance(by: 60)
        let newer = try #require(try await ws.invites.invite(numbers: ["+385913333333"]).bulkId)
        _ = try ws.ledger.applyDeliveryInfos(bulkId: older, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveryImpossible),
        ])
        let effects = EffectPump()
        let vm = DeliveriesViewModel(book: ws.book, invites: ws.invites, search: ws.deliveries,
                                     context: effects.context(toasts: ToastBoard(clock: clock), clock: clock))
        let pane = DeliveriesPane(viewModel: vm, clock: clock)
        await effects.settle()
        #expect(vm.visibleBulks.map(\.bulkId) == [newer, older])
        #expect(pane.handle(action: .sort))
        #expect(vm.sort == .oldest && vm.visibleBulks.map(\.bulkId) == [older, newer])
        // The cursor stays on the bulk it was on.
        #expect(vm.currentBulk?.bulkId == newer)
        #expect(pane.handle(action: .sort))
        #expect(vm.sort == .mostFailed && vm.visibleBulks.first?.bulkId == older)
        #expect(pane.handle(action: .sort))
        #expect(vm.sort == .mostPending && vm.visibleBulks.first?.bulkId == newer)

        // Every key the help lists for this pane does something here (q and Esc leave to the shell from the list;
        // copy_reason needs an open bulk's failed recipient, see DeliveriesDetailTests).
        let listed = Set(KeyBindings.defaults.filter { binding in
            binding.contexts.contains { KeyContext.deliveries.chain.contains($0) && $0 != .global }
        }.map(\.action))
        // breakdown_by works in the open breakdown (DeliveriesQueryPaneTests), history in an open bulk
        // (DeliveriesHistoryTests).
        for action in listed.sorted(by: { $0.rawValue < $1.rawValue })
        where ![.back, .quit, .resend, Action("copy_reason"), Action("breakdown_by"), Action("history")].contains(action) {
            #expect(pane.handle(action: action), "\(action.rawValue) is listed in Deliveries' help but does nothing")
            await effects.settle()
            if vm.openBulkId != nil { _ = vm.close() }
            if vm.breakdown.isOpen { vm.toggleBreakdown() }
            if pane.keyContext == .editor { _ = pane.handle(action: .finishEditing) }
        }
    }

    /// Under NO_COLOR (attributes only) the cursor row still stands out from the rows around it, and moves with `j`.
    @Test func withoutColourTheCursorRowDiffersFromItsNeighbours() async throws {
        let f = try await BulksFixture(numbers: ["+385911111111", "+385912222222", "+385913333333"])
        defer { withExtendedLifetime(f) {} }
        let pane = f.pane
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        /// The attributes of each bulk row's first cell, resolved as a NO_COLOR terminal shows them.
        func rowLooks() -> [ResolvedStyle] {
            var canvas = Canvas(size: Size(width: 80, height: 10))
            pane.layout(in: canvas.bounds)
            pane.render(into: &canvas, in: canvas.bounds, theme: theme)
            return (3...5).compactMap { y in canvas.cell(x: 1, y: y).map { theme.resolve($0.style, depth: .none) } }
        }
        let before = rowLooks()
        #expect(before.count == 3)
        #expect(before[0] != before[1] && before[1] == before[2], "the cursor row (first) stands out: \(before)")
        #expect(pane.handle(action: .moveDown))
        let after = rowLooks()
        #expect(after[1] != after[0] && after[0] == after[2], "the cursor moved to the second row: \(after)")
    }
}

/// A Deliveries pane on a fresh workspace holding one bulk per number, sent a minute apart, its view-model settled.
@MainActor final class BulksFixture {
    let test: WorkspaceHarness
    let vm: DeliveriesViewModel
    let pane: DeliveriesPane
    let effects = EffectPump()

    var ws: Workspace { test.workspace }
    var clock: ManualClock { test.clock }

    init(numbers: [String]) async throws {
        test = try await WorkspaceHarness.screens()
        let clock = test.clock, ws = test.workspace
        for number in numbers {
            _ = try #require(try await ws.invites.invite(numbers: [number]).bulkId)
            clock.advance(by: 60)
        }
        vm = DeliveriesViewModel(book: test.book, invites: ws.invites, search: ws.deliveries, context: effects.context(toasts: ToastBoard(clock: clock), clock: clock))
        pane = DeliveriesPane(viewModel: vm, clock: clock)
        await effects.settle()
    }
}
