import Foundation
import HeraldCore
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldTUI
@testable import HeraldViewModels

/// A bulk's recipients with their reasons, one recipient in detail, `:sort` with Deliveries' orders, and bulk ids
/// whole when the pane is wide enough.
@MainActor struct DeliveriesDetailTests {
    private func draw(_ pane: DeliveriesPane, width: Int = 120, height: Int = 24) throws -> String {
        var canvas = Canvas(size: Size(width: width, height: height))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        return canvas.snapshot()
    }

    /// Two invited in one bulk, the first failed as an absent subscriber; Deliveries read again.
    static func bulkWithOneFailure() async throws -> (BulksFixture, bulk: String) {
        let f = try await BulksFixture(numbers: [])
        let bulk = try #require(try await f.ws.invites.invite(numbers: ["+385911111111", "+385912222222"]).bulkId)
        _ = try f.ws.ledger.applyDeliveryInfos(bulkId: bulk, [
            DeliveryUpdate(address: "385911111111", messageId: nil, status: .deliveryImpossible, price: 0.0075, currency: "EUR",
                           reason: "EC_ABSENT_SUBSCRIBER", permanent: true),
        ])
        f.vm.reload()
        await f.effects.settle()
        return (f, bulk)
    }

    @Test func aReasonColumnAndEnterShowsOneRecipientWholeFollowingTheCursorEscClosesIt() async throws {
        let (f, bulk) = try await Self.bulkWithOneFailure()
        defer { withExtendedLifetime(f) {} }
        #expect(f.pane.handle(action: .open))
        await f.effects.settle()
        let table = try draw(f.pane)
        let header = try #require(table.split(separator: "\n").first { $0.contains("Number") })
        #expect(header.contains("Reason") && header.contains("Price"))
        // What the carrier reported charging, at the right of the message line (no estimate: sent without prices).
        #expect(table.contains("cost 0.0075 EUR reported"), "\(table)")
        let failedRow = try #require(table.split(separator: "\n").first { $0.contains("+385911111111") })
        #expect(failedRow.contains("EC_ABSENT_SUBSCRIBER") && failedRow.contains("0.0075 EUR"))

        let failedAt = try #require(f.vm.visibleRecipients.firstIndex { $0.number == "+385911111111" })
        f.vm.moveCursor(to: failedAt)
        #expect(f.pane.handle(action: .open))
        let detail = try draw(f.pane)
        #expect(detail.contains("╭ +385911111111 "), "a number without a person is the detail's title")
        // The text as the platform sent it: fields filled, the link made, nothing left in braces.
        let sent = try #require(try f.ws.ledger.recipients(ofBulk: bulk).first { $0.msisdn == "+385911111111" }?.text)
        #expect(!sent.contains("{") && sent.contains("https://"))
        #expect(detail.contains("Text        " + String(sent.prefix(40))), "\(detail)")
        // Its short link is a link span of the frame (OSC 8 where the terminal shows them).
        var canvas = Canvas(size: Size(width: 120, height: 24))
        f.pane.layout(in: canvas.bounds)
        f.pane.render(into: &canvas, in: canvas.bounds, theme: try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default"))
        let link = try #require(sent.split(separator: " ").first { $0.hasPrefix("https://") })
        #expect(canvas.links.contains { link.hasPrefix($0.url) && $0.url.count > 12 }, "\(canvas.links) \(link)")
        #expect(detail.contains("Number      +385911111111"))
        #expect(detail.contains("Status      \(DeliveryStatus.deliveryImpossible.label)"))
        #expect(detail.contains("Reason      EC_ABSENT_SUBSCRIBER (for good: not retried)"))
        #expect(detail.contains("Price       0.0075 EUR") && detail.contains("Attempts    1"))
        #expect(detail.contains("Bulk        \(bulk)"))
        // j moves the cursor and the detail goes with it.
        f.vm.moveCursor(to: 1 - failedAt)
        #expect(try draw(f.pane).contains("Number      +385912222222"))
        // With the detail in front, the list behind takes no keys: the pane does not offer space or f (they go on to
        // the shell, which does nothing with them, while ? and the pane keys still work), and Esc closes the detail
        // even while a search is set.
        f.vm.setQuery("+385")
        await f.effects.settle()
        #expect(!f.pane.bindings.contains { $0.action == .select || $0.action == .filter })
        #expect(!f.pane.handle(action: .select) && !f.pane.handle(action: .filter))
        #expect(f.vm.selectedRecipients.isEmpty && f.vm.filter == .all)
        #expect(f.pane.handle(action: .back))
        #expect(f.vm.detail == nil && f.vm.openBulkId == bulk, "Esc closes the detail, the bulk stays open")
        #expect(f.vm.query.text == "+385")
        #expect(f.pane.handle(action: .back) && !f.vm.query.isActive, "then Esc clears the query")
        #expect(f.pane.handle(action: .back))
        #expect(f.vm.openBulkId == nil)
    }

    @Test func eCopiesWhyTheRecipientFailedAndSaysWhyNotWhenItDidNot() async throws {
        let (f, _) = try await Self.bulkWithOneFailure()
        defer { withExtendedLifetime(f) {} }
        let copyReason = Action("copy_reason")
        // The key table has it (so ?, docs/keys.md, herald keys and [keys] do): e in Deliveries.
        #expect(KeyMap().action(for: .char("e"), in: .deliveries) == copyReason)
        #expect(!f.pane.bindings.contains { $0.action == copyReason }, "the bulks have no recipient to copy from")
        #expect(f.pane.handle(action: .open))
        await f.effects.settle()
        let failedAt = try #require(f.vm.visibleRecipients.firstIndex { $0.number == "+385911111111" })
        f.vm.moveCursor(to: 1 - failedAt)
        #expect(f.pane.bindings.disabledReasons[copyReason] == "this recipient has no failure reason")
        #expect(!f.pane.handle(action: copyReason))
        f.vm.moveCursor(to: failedAt)
        #expect(f.pane.handle(action: .open), "in the recipient's detail too")
        #expect(f.pane.handle(action: copyReason))
        await f.effects.settle()
        let toast = try #require(f.vm.context.toasts.notes.last?.text)
        #expect(toast.hasSuffix("the failure reason: EC_ABSENT_SUBSCRIBER"), "\(toast)")
    }

    @Test func sortTakesDeliveriesOrdersAndSaysWhatAContactsOrderIsNot() async throws {
        let f = try await BulksFixture(numbers: ["+385911111111", "+385912222222"])
        defer { withExtendedLifetime(f) {} }
        let newestFirst = f.vm.visibleBulks.map(\.bulkId)
        f.vm.setSort(.oldest)
        #expect(f.vm.sort == .oldest && f.vm.visibleBulks.map(\.bulkId) == newestFirst.reversed())
        f.vm.setSort(.mostPending)
        #expect(f.vm.sort == .mostPending)
        f.vm.refuseSort("last")
        #expect(f.vm.sort == .mostPending)
        #expect(DeliverySort(name: "most-failed") == .mostFailed && DeliverySort(name: "sideways") == nil)
    }

    @Test func bulkIdsAreWholeWhenThePaneIsWideEnoughElseCut() async throws {
        let f = try await BulksFixture(numbers: ["+385911111111"])
        defer { withExtendedLifetime(f) {} }
        let id = try #require(f.vm.visibleBulks.first?.bulkId)
        #expect(try draw(f.pane, width: 160).contains(id))
        let narrow = try draw(f.pane, width: 90)
        #expect(!narrow.contains(id) && narrow.contains(String(id.prefix(10))))
    }
}

/// The open bulk's cost: what the carrier reported beside what the send estimated.
struct DeliveriesCostTests {
    @Test func theEstimateAKeptSendHasStandsBesideTheReportedCost() {
        var record = BulkRecord(bulkId: "b1", createdAt: Date(), recipientCount: 2)
        record.estimate = 0.02
        record.estimateCurrency = "EUR"
        let summary = BulkSummary(BulkCounts(record: record, counts: [:]))
        #expect(summary.estimate == "0.02 EUR")
        #expect(DeliveriesPane.cost(estimate: summary.estimate, reported: "0.015 EUR") == "cost 0.015 EUR reported, 0.02 EUR estimated")
        #expect(DeliveriesPane.cost(estimate: summary.estimate, reported: nil) == "cost 0.02 EUR estimated")
        #expect(DeliveriesPane.cost(estimate: nil, reported: nil).isEmpty)
    }
}
