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
        let vm = DeliveriesViewModel(book: ws.book, invites: ws.invites,
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
        let vm = DeliveriesViewModel(book: ws.book, invites: ws.invites,
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
        for action in listed.sorted(by: { $0.rawValue < $1.rawValue }) where ![.back, .quit, .resend, Action("copy_reason")].contains(action) {
            #expect(pane.handle(action: action), "\(action.rawValue) is listed in Deliveries' help but does nothing")
            await effects.settle()
            if vm.openBulkId != nil { _ = vm.close() }
            if pane.keyContext == .editor { _ = pane.handle(action: .finishEditing) }
        }
    }

    @Test func slashJumpsToAMatchAndNAndShiftNWalkThemWithoutHidingRows() async throws {
        let f = try await BulksFixture(numbers: (0..<4).map { "+38591\(1_111_110 + $0)" })
        defer { withExtendedLifetime(f) {} }
        let (vm, pane) = (f.vm, f.pane)
        let shown = vm.visibleBulks.map(\.bulkId)     // newest first
        #expect(shown.count == 4)
        // Search for the oldest bulk by the start of its id.
        let target = try #require(shown.last)
        #expect(pane.handle(action: .search))
        #expect(pane.keyContext == .editor)
        for c in target.prefix(8) { _ = pane.handle(unboundKey: .char(c)) }
        #expect(vm.currentBulk?.bulkId == target)
        #expect(pane.handle(unboundKey: .enter))
        #expect(pane.keyContext == .deliveries)
        #expect(vm.visibleBulks.count == 4)            // nothing hidden
        var canvas = Canvas(size: Size(width: 100, height: 12))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        #expect(canvas.snapshot().contains("1 match · n next · N previous"))
        // `/` again opens empty, as in vim; enter on the empty field keeps the last search.
        #expect(pane.handle(action: .search))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        #expect(canvas.snapshot().contains("enter keeps /\(target.prefix(8))"))
        #expect(!canvas.snapshot().contains("/\(target.prefix(8))  1 match"))
        #expect(pane.handle(unboundKey: .enter))
        #expect(vm.search.query == String(target.prefix(8)))
        // Every bulk's message mentions the app: n walks them and wraps; N goes back.
        vm.setSearch("herald")
        #expect(vm.searchMatches == 4)
        vm.setFilter(.failed)                          // the shown rows change: counted again
        #expect(vm.searchMatches == 0)
        // The title counts what the filter shows, and of how many.
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        #expect(canvas.snapshot().contains("Deliveries — \(counted(vm.visibleBulks.count, "bulk")) of 4 · filter: failed"), "\(canvas.snapshot())")
        #expect(vm.visibleBulks.count < 4)
        vm.setFilter(.all)
        #expect(vm.searchMatches == 4)
        vm.moveCursor(to: 0)
        #expect(pane.handle(action: .nextMatch))
        #expect(vm.cursor == 1)
        vm.moveCursor(to: 3)
        #expect(pane.handle(action: .nextMatch))
        #expect(vm.cursor == 0)
        #expect(pane.handle(action: .previousMatch))
        #expect(vm.cursor == 3)
        // Esc clears the search before it closes anything.
        #expect(pane.handle(action: .back))
        #expect(vm.search.query.isEmpty)
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
        vm = DeliveriesViewModel(book: test.book, invites: ws.invites, context: effects.context(toasts: ToastBoard(clock: clock), clock: clock))
        pane = DeliveriesPane(viewModel: vm, clock: clock)
        await effects.settle()
    }
}
