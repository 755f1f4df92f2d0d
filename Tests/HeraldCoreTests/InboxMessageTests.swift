import Foundation
import Testing
@testable import HeraldCore

@Suite struct InboxMessageTests {
    let t0 = Date(epochMilliseconds: 1_643_314_503_233)

    func message(_ id: String, at ms: Int64, topic: String? = nil, seen: Bool = false) -> InboxMessage {
        InboxMessage(messageId: id, title: "T\(id)", body: "B\(id)", topic: topic,
                     sendDateTime: Date(epochMilliseconds: ms), seen: seen)
    }

    @Test func epochMillisecondsRoundTrip() {
        #expect(t0.epochMilliseconds == 1_643_314_503_233)
        #expect(Date(epochMilliseconds: 0) == Date(timeIntervalSince1970: 0))
    }

    @Test func identityIsTheMessageId() {
        let m = InboxMessage(messageId: "1", title: nil, body: "b", topic: nil, sendDateTime: t0)
        #expect(m.id == "1")
    }

    @Test func newestFirstWithStableTies() {
        let ms = [message("a", at: 100), message("c", at: 300), message("b", at: 300)]
        #expect(ms.sorted(by: InboxMessage.newestFirst).map(\.messageId) == ["b", "c", "a"])
    }

    @Test func filterRangeIsFromInclusiveToExclusive() {
        let f = InboxFilter(topic: "promo", from: Date(epochMilliseconds: 100), to: Date(epochMilliseconds: 200))
        #expect(f.matches(message("1", at: 100, topic: "promo")))
        #expect(!f.matches(message("2", at: 200, topic: "promo")))
        #expect(!f.matches(message("3", at: 99, topic: "promo")))
        #expect(!f.matches(message("4", at: 150, topic: "news")))
        #expect(!f.matches(message("5", at: 150)))
        #expect(f.limit == 20)
        #expect(f.isFiltering)
        #expect(!InboxFilter(limit: 5).isFiltering)
    }

    @Test func nextPageEndsAtTheOldestSeen() {
        let f = InboxFilter(topic: "promo", to: nil, limit: 10)
        let next = f.nextPage(after: Date(epochMilliseconds: 500))
        #expect(next.to == Date(epochMilliseconds: 500))
        #expect(next.topic == "promo")
        #expect(next.limit == 10)
        #expect(!next.matches(message("x", at: 500, topic: "promo")))
    }

    @Test func countsFromMessages() {
        let ms = [message("1", at: 1, topic: "promo"), message("2", at: 2, topic: "promo", seen: true),
                  message("3", at: 3, topic: "news"), message("4", at: 4, seen: true)]
        let c = InboxCounts(messages: ms, filter: InboxFilter(topic: "promo"))
        #expect(c == InboxCounts(total: 4, unread: 2, totalFiltered: 2, unreadFiltered: 1))
    }

    @Test func markingSeenLowersUnreadButNeverBelowZero() {
        let c = InboxCounts(total: 10, unread: 5, totalFiltered: 3, unreadFiltered: 1)
        #expect(c.markingSeen(2, inFilter: 1) == InboxCounts(total: 10, unread: 3, totalFiltered: 3, unreadFiltered: 0))
        #expect(c.markingSeen(9, inFilter: 9) == InboxCounts(total: 10, unread: 0, totalFiltered: 3, unreadFiltered: 0))
    }
}
