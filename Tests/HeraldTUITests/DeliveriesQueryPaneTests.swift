import Foundation
import HeraldCore
@testable import HeraldServices
import HeraldStore
import HeraldTestKit
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels

/// Deliveries' `/` query (only matching bulks and recipients show, errors say what to write, the history is kept),
/// the breakdown by reason, country and sender ID with its groups' recipients and resend, and `:export`, on a real
/// workspace's ledger.
@MainActor struct DeliveriesQueryPaneTests {
    private func draw(_ pane: DeliveriesPane, width: Int = 120, height: Int = 24) throws -> String {
        var canvas = Canvas(size: Size(width: width, height: height))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        return canvas.snapshot()
    }

    /// Three bulks: one with an absent subscriber (not for good) and a delivered number, one with a barred number
    /// (for good), one all delivered.
    static func threeBulks() async throws -> (BulksFixture, absent: String, barred: String, fine: String) {
        let f = try await BulksFixture(numbers: [])
        let absent = try #require(try await f.ws.invites.invite(numbers: ["+385911111111", "+385912222222"]).bulkId)
        f.clock.advance(by: 60)
        let barred = try #require(try await f.ws.invites.invite(numbers: ["+385913333333"]).bulkId)
        f.clock.advance(by: 60)
        let fine = try #require(try await f.ws.invites.invite(numbers: ["+385914444444"]).bulkId)
        _ = try f.ws.ledger.applyDeliveryInfos(bulkId: absent, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveryImpossible, reason: "EC_ABSENT_SUBSCRIBER",
                           permanent: false),
            DeliveryUpdate(address: "385912222222", messageId: nil, status: .deliveredToTerminal),
        ])
        _ = try f.ws.ledger.applyDeliveryInfos(bulkId: barred, [
            DeliveryUpdate(address: "385913333333", messageId: nil, status: .deliveryImpossible, reason: "EC_CALL_BARRED",
                           permanent: true),
        ])
        _ = try f.ws.ledger.applyDeliveryInfos(bulkId: fine, [
            DeliveryUpdate(address: "385914444444", messageId: nil, status: .deliveredToTerminal),
        ])
        f.vm.reload()
        await f.effects.settle()
        return (f, absent, barred, fine)
    }

    private func type(_ text: String, into pane: DeliveriesPane) {
        for c in text { _ = pane.handle(unboundKey: .char(c)) }
    }

    @Test func slashShowsOnlyMatchingBulksAndRecipientsAndSaysWhatItMatched() async throws {
        let (f, absent, barred, _) = try await Self.threeBulks()
        defer { withExtendedLifetime(f) {} }
        #expect(f.vm.visibleBulks.count == 3)
        #expect(f.pane.handle(action: .search))
        #expect(f.pane.keyContext == .editor)
        type("status:failed", into: f.pane)
        await f.effects.settle()
        #expect(Set(f.vm.visibleBulks.map(\.bulkId)) == [absent, barred])
        var screen = try draw(f.pane)
        #expect(screen.contains("2 recipients in 2 bulks"), "\(screen)")
        #expect(screen.contains("Deliveries — 2 bulks of 3"))
        // Narrowed as it is typed: a reason phrase leaves one bulk.
        type(" reason:absent", into: f.pane)
        await f.effects.settle()
        #expect(f.vm.visibleBulks.map(\.bulkId) == [absent])
        // A value that cannot be read says what to write; the last answer stays.
        type(" country:XX", into: f.pane)
        await f.effects.settle()
        screen = try draw(f.pane)
        #expect(f.vm.query.error?.contains("country:XX") == true, "\(String(describing: f.vm.query.error))")
        #expect(f.vm.visibleBulks.map(\.bulkId) == [absent])
        for _ in 0..<" country:XX".count { _ = f.pane.handle(unboundKey: .backspace) }
        await f.effects.settle()
        #expect(f.vm.query.error == nil)
        #expect(f.pane.handle(unboundKey: .enter))
        #expect(f.pane.keyContext == .deliveries)
        // In the open bulk only the matching recipient shows.
        f.vm.moveCursor(to: 0)
        #expect(f.pane.handle(action: .open))
        await f.effects.settle()
        #expect(f.vm.visibleRecipients.map(\.number) == ["+385911111111"])
        #expect(f.pane.handle(action: .back))          // the query is cleared first
        await f.effects.settle()
        #expect(!f.vm.query.isActive)
        #expect(f.vm.visibleRecipients.count == 2)
        #expect(f.pane.handle(action: .back))          // then the bulk closes
        #expect(f.vm.openBulkId == nil && f.vm.visibleBulks.count == 3)
    }

    @Test func theHistoryOfQueriesIsKeptAcrossRunsAndWalkedWithUpAndDown() async throws {
        let (f, _, _, _) = try await Self.threeBulks()
        defer { withExtendedLifetime(f) {} }
        for text in ["status:failed", "country:HR"] {
            _ = f.pane.handle(action: .search)
            _ = f.pane.handle(unboundKey: .ctrl("u"))
            type(text, into: f.pane)
            _ = f.pane.handle(unboundKey: .enter)
            await f.effects.settle()
        }
        // A second Deliveries on the same workspace (the next run) reads the history.
        let effects = EffectPump()
        let again = DeliveriesViewModel(book: f.test.book, invites: f.ws.invites, search: f.ws.deliveries,
                                        context: effects.context(toasts: ToastBoard(clock: f.clock), clock: f.clock))
        let pane = DeliveriesPane(viewModel: again, clock: f.clock)
        await effects.settle()
        #expect(again.queryHistory.entries == ["status:failed", "country:HR"])
        _ = pane.handle(action: .search)
        #expect(pane.handle(action: .earlierSearch))
        #expect(again.query.text == "country:HR")
        #expect(pane.handle(action: .earlierSearch))
        #expect(again.query.text == "status:failed")
        await effects.settle()
        #expect(again.visibleBulks.count == 2)
        #expect(pane.handle(action: .laterSearch))
        #expect(again.query.text == "country:HR")
    }

    @Test func theBreakdownGroupsByReasonCountryAndSenderAndOpensAGroup() async throws {
        let (f, absent, _, _) = try await Self.threeBulks()
        defer { withExtendedLifetime(f) {} }
        f.vm.setQuery("status:failed")
        await f.effects.settle()
        #expect(f.pane.handle(action: Action("breakdown")))
        await f.effects.settle()
        let groups = f.vm.breakdown.groups
        #expect(Set(groups.map(\.key.label)) == ["EC_ABSENT_SUBSCRIBER", "EC_CALL_BARRED"])
        #expect(groups.allSatisfy { $0.count == 1 && abs($0.share - 0.5) < 0.001 })
        var screen = try draw(f.pane)
        #expect(screen.contains("breakdown by reason"))
        let absentRow = try #require(screen.split(separator: "\n").first { $0.contains("EC_ABSENT_SUBSCRIBER") })
        #expect(absentRow.contains("50%"), "\(absentRow)")
        // Grouped by country: every failure is a Croatian number.
        #expect(f.pane.handle(action: Action("breakdown_by")))
        await f.effects.settle()
        #expect(f.vm.breakdown.groups.map(\.key.label) == ["HR"])
        #expect(f.vm.breakdown.groups.first?.count == 2)
        #expect(f.pane.handle(action: Action("breakdown_by")))
        await f.effects.settle()
        #expect(f.vm.breakdown.dimension == .sender)
        #expect(f.pane.handle(action: Action("breakdown_by")))     // back to reasons
        await f.effects.settle()
        // Enter opens the group's recipients; Enter again one of them in detail.
        let at = try #require(f.vm.breakdown.groups.firstIndex { $0.key.label == "EC_ABSENT_SUBSCRIBER" })
        f.vm.moveBreakdownCursor(to: at)
        #expect(f.pane.handle(action: .open))
        await f.effects.settle()
        #expect(f.vm.breakdown.groupRecipients.map(\.number) == ["+385911111111"])
        #expect(f.vm.breakdown.groupRecipients.first?.bulkId == absent)
        #expect(f.pane.handle(action: .open))
        screen = try draw(f.pane)
        #expect(screen.contains("Number      +385911111111") && screen.contains("Bulk        \(absent)"), "\(screen)")
        // r asks to resend what of the group can be retried (the absent subscriber, not barred for good).
        #expect(f.pane.handle(action: .back))
        #expect(f.pane.handle(action: .resend))
        await f.effects.settle()
        let question = try #require(f.vm.confirmation)
        #expect(question.numbers == ["+385911111111"] && question.bulkIds == [absent])
        f.vm.cancelResend()
        // The barred group has nothing to resend, and says so.
        #expect(f.pane.handle(action: .back))
        let barredAt = try #require(f.vm.breakdown.groups.firstIndex { $0.key.label == "EC_CALL_BARRED" })
        f.vm.moveBreakdownCursor(to: barredAt)
        #expect(f.pane.handle(action: .resend))
        await f.effects.settle()
        #expect(f.vm.confirmation == nil)
        #expect(f.vm.context.toasts.notes.contains { $0.text.contains("nothing failed") })
        // Esc leaves the breakdown.
        #expect(f.pane.handle(action: .back))
        #expect(!f.vm.breakdown.isOpen)
    }

    @Test func exportWritesWhatIsShownToAFileAndSaysHowMany() async throws {
        let (f, _, _, _) = try await Self.threeBulks()
        defer { withExtendedLifetime(f) {} }
        let dir = try TempDir("deliveries-export")
        f.vm.setQuery("status:failed")
        await f.effects.settle()
        let file = dir.url.appendingPathComponent("failed.csv").path
        f.vm.export(to: file)
        await f.effects.settle()
        let csv = try String(contentsOfFile: file, encoding: .utf8)
        let lines = csv.split(separator: "\r\n")
        #expect(lines.count == 3, "\(csv)")
        #expect(lines.first?.hasPrefix("bulk,") == true)
        #expect(csv.contains("+385911111111") && csv.contains("+385913333333") && !csv.contains("+385914444444"))
        #expect(f.vm.context.toasts.notes.contains { $0.text.contains("exported 2 recipients") })
        // A folder that does not exist is an error that names it, and nothing is left behind.
        f.vm.export(to: dir.url.appendingPathComponent("missing/x.csv").path)
        await f.effects.settle()
        #expect(f.vm.context.toasts.notes.contains { $0.level == .error && $0.text.contains("missing") })
    }
}
