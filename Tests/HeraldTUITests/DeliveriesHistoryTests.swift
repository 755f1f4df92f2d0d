import Foundation
import HeraldCore
import HeraldTestKit
@testable import HeraldServices
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels

/// An open bulk shows the latest line of its audit trail (who sent it, from where), and `a` all of it; a bulk taken
/// back says so too.
@MainActor struct DeliveriesHistoryTests {
    private func draw(_ pane: DeliveriesPane, width: Int = 140, height: Int = 24) throws -> String {
        var canvas = Canvas(size: Size(width: width, height: height))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        return canvas.snapshot()
    }

    @Test func anOpenBulkShowsWhoSentItAndAShowsItsWholeHistory() async throws {
        let f = try await BulksFixture(numbers: [])
        defer { withExtendedLifetime(f) {} }
        let bulk = try #require(try await f.ws.invites.invite(numbers: ["+385911111111", "+385912222222"]).bulkId)
        let effects = EffectPump()
        let vm = DeliveriesViewModel(book: f.test.book, invites: f.ws.invites, search: f.ws.deliveries, audit: f.ws.audit,
                                     context: effects.context(toasts: ToastBoard(clock: f.clock), clock: f.clock))
        let pane = DeliveriesPane(viewModel: vm, clock: f.clock)
        await effects.settle()
        #expect(!pane.bindings.contains { $0.action == Action("history") }, "a is for an open bulk")
        #expect(vm.currentBulk?.bulkId == bulk)
        #expect(pane.handle(action: .open))
        await effects.settle()
        let history = try #require(vm.bulkHistory)
        #expect(history.lines.count == 1 && history.lines[0].contains("send") && history.lines[0].contains("2 recipients"),
                "\(history.lines)")
        let screen = try draw(pane)
        let last = try #require(screen.split(separator: "\n").first { $0.contains("last: ") })
        #expect(last.contains("send") && last.contains("local"), "\(last)")
        #expect(pane.handle(action: Action("history")))
        await effects.settle()
        #expect(try draw(pane).contains("History of bulk \(bulk.prefix(8))"))
        #expect(pane.handle(action: .back))
        #expect(!vm.showsHistory && vm.openBulkId == bulk, "esc closes the history, the bulk stays open")
        #expect(pane.handle(action: .back))
        #expect(vm.openBulkId == nil && vm.bulkHistory == nil)
    }
}
