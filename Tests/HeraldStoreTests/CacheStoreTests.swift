import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct CacheStoreTests {
    @Test func settingsRoundTripAndDelete() throws {
        let s = try TempStore()
        let settings = SettingsStore(database: s.database)
        try settings.set("theme", "dark")
        try settings.set("pollSeconds", 8)
        try settings.set("resend", true)
        #expect(try settings.string("theme") == "dark")
        #expect(try settings.int("pollSeconds") == 8)
        #expect(try settings.bool("resend") == true)
        try settings.set("theme", nil)
        #expect(try settings.string("theme") == nil)
        #expect(try settings.all().count == 2)
    }

    @Test func suggestionHistoryMarksAndResetsSeen() throws {
        let s = try TempStore()
        let a = try #require(try s.contacts.insert(person("Ana", "A")).id)
        let b = try #require(try s.contacts.insert(person("Bo", "B")).id)
        let history = SuggestionHistoryStore(database: s.database)
        try history.markSuggested([a, b], at: s.clock.now())
        #expect(try history.seenIDs() == [a, b])
        try history.resetSeen()
        #expect(try history.seenIDs().isEmpty)
        #expect(try history.record(personId: a)?.lastSuggestedAt == s.clock.now())
        // Deleting a person drops their history.
        try s.contacts.delete(id: a)
        #expect(try history.all().keys.sorted() == [b])
    }

    @Test func templatesCache() throws {
        let s = try TempStore()
        let cache = TemplateCacheStore(database: s.database)
        try cache.save(CachedTemplate(messageKey: "welcome", applicationKey: "app", text: "Join me <>", placeholder: "<>",
                                      clientPlaceholder: nil, fetchedAt: s.clock.now()))
        try cache.save(CachedTemplate(messageKey: "welcome", applicationKey: "app", text: "Join us <>", placeholder: "<>",
                                      clientPlaceholder: nil, fetchedAt: s.clock.now()))
        #expect(try cache.all().map(\.text) == ["Join us <>"])
        try cache.remove(key: "welcome")
        #expect(try cache.template(key: "welcome") == nil)
    }

    @Test func inboxCacheFiltersAndKeepsLocalSeen() throws {
        let s = try TempStore()
        let inbox = InboxCacheStore(database: s.database)
        let t0 = s.clock.now()
        let msgs = (0..<5).map { i in
            InboxMessage(messageId: "m\(i)", title: "T\(i)", body: "B\(i)", topic: i % 2 == 0 ? "promo" : "news",
                         sendDateTime: t0.addingTimeInterval(Double(i) * 60))
        }
        try inbox.save(msgs, userId: "user1")
        #expect(try inbox.messages(userId: "user1").map(\.messageId) == ["m4", "m3", "m2", "m1", "m0"])
        #expect(try inbox.messages(userId: "user1", filter: InboxFilter(topic: "promo")).map(\.messageId) == ["m4", "m2", "m0"])
        let range = InboxFilter(from: t0.addingTimeInterval(60), to: t0.addingTimeInterval(180))
        #expect(try inbox.messages(userId: "user1", filter: range).map(\.messageId) == ["m2", "m1"])
        try inbox.setSeen(true, messageIds: ["m1"], userId: "user1")
        try inbox.save(msgs, userId: "user1")   // a refresh that still says unseen
        #expect(try inbox.unreadCount(userId: "user1") == 4)
        #expect(try inbox.messages(userId: "USER1").isEmpty)   // user ids are case-sensitive
    }
}
