import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import Testing
@testable import HeraldViewModels

/// The contacts list's data apart from the screen: listings asked while one is read are not read twice, a query the
/// book refuses is reported and the listing shown stays, and the rows handed out are a copy.
@Suite("Contact feed")
struct ContactFeedTests {
    /// What the feed told.
    final class Heard: ContactFeedListener {
        var installed: [(keep: Int64?, changed: Bool)] = []
        var refused: [String] = []
        var relists: [Bool] = []
        func listingInstalled(keep: Int64?, changed: Bool) { installed.append((keep, changed)) }
        func queryRefused(_ message: String) { refused.append(message) }
        func relist(keepingCursor: Bool) { relists.append(keepingCursor) }
        func suggestionsShifted(by shift: Int, from before: Int) {}
        func suggestionsFailed(_ error: any Error) {}
    }

    private func seeded() async throws -> WorkspaceHarness {
        let ws = try await WorkspaceHarness.screens()
        try ws.add("Ana", "Horvat", "091 111 1111")
        try ws.add("Ivo", "Horvatić", "092 222 2222")
        try ws.add("Zora", "Kovač", "091 444 4444")
        return ws
    }

    @Test func listingsAskedWhileOneIsReadWaitAndAreAskedForOnce() async throws {
        let ws = try await seeded()
        let effects = EffectPump()
        let feed = ContactFeed(book: ws.book, suggestions: nil, effects: effects.queue)
        let heard = Heard()
        feed.listener = heard
        feed.reload(query: "", sort: .firstName, keep: nil, keepingCursor: true)
        feed.reload(query: "h", sort: .firstName, keep: nil, keepingCursor: false)     // overlapping: they wait
        feed.reload(query: "ho", sort: .firstName, keep: nil, keepingCursor: true)
        #expect(effects.queue.inFlight == 1)
        await effects.settle()
        #expect(heard.installed.count == 1 && feed.listing.total == 3)
        #expect(heard.relists == [false], "one relist for both, keeping the cursor only if both did")
        #expect(!feed.isListing && !feed.isLoading)
    }

    @Test func aQueryTheBookRefusesIsReportedAndTheListingShownStays() async throws {
        let ws = try await seeded()
        let effects = EffectPump()
        let feed = ContactFeed(book: ws.book, suggestions: nil, effects: effects.queue)
        let heard = Heard()
        feed.listener = heard
        feed.reload(query: "", sort: .firstName, keep: nil, keepingCursor: true)
        await effects.settle()
        let shown = feed.rows(in: 0..<feed.count)
        feed.reload(query: "status:maybe", sort: .firstName, keep: nil, keepingCursor: false)
        await effects.settle()
        #expect(heard.refused.count == 1 && heard.refused[0].contains("maybe"))
        #expect(feed.listing.query == "" && feed.listing.total == 3, "the listing shown stays")
        #expect(heard.installed.count == 1)

        feed.reload(query: "kovač", sort: .firstName, keep: nil, keepingCursor: false)
        await effects.settle()
        #expect(feed.listing.total == 1)
        #expect(shown.compactMap { $0?.name } == ["Ana Horvat", "Ivo Horvatić", "Zora Kovač"],
                "the rows handed out before are a copy the new listing leaves alone")
    }
}
