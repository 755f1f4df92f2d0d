import Foundation
import HeraldEngine
@testable import HeraldServer
import HeraldTestKit
import Testing

/// One database read for every subscriber a commit wakes, frames in order, and a subscriber far behind still gets
/// everything (from the database).
@Suite struct EventCacheTests {
    func engine(in folder: TempDir) throws -> PlatformEngine {
        try PlatformEngine.open(at: folder.file("engine.sqlite"))
    }

    @Test func fiftySubscribersWokenByOneCommitCauseOneReadAndAllGetItsEvent() async throws {
        let folder = try TempDir("cache")
        let engine = try self.engine(in: folder)
        let app = try await engine.bootstrapSandbox().applicationKey
        let cache = EventCache(engine: engine, maxAge: 60)
        let start = try await engine.eventRange(applicationKey: app).newest
        _ = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        let before = cache.databaseReads
        try await engine.pushInbox(user: "demo", topic: nil, title: nil, body: "one", applicationKey: app)
        let generation = engine.bell.generation
        let got = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<50 {
                group.addTask { try await cache.frames(applicationKey: app, after: start, limit: 500, generation: generation).map(\.id) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(got.count == 50)
        #expect(Set(got.map(\.count)) == [1])
        #expect(cache.databaseReads - before == 1)
        // Nothing rang since: no read. Another commit: one more.
        _ = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        #expect(cache.databaseReads - before == 1)
        try await engine.pushInbox(user: "demo", topic: nil, title: nil, body: "two", applicationKey: app)
        let both = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        #expect(both.count == 2 && both[0].id < both[1].id)
        #expect(String(buffer: both[1].frame).hasPrefix("id: \(both[1].id)\nevent: "))
        #expect(cache.databaseReads - before == 2)
    }

    @Test func aSubscriberBehindTheKeptEventsReadsTheDatabaseAndMissesNothing() async throws {
        let folder = try TempDir("cache")
        let engine = try self.engine(in: folder)
        let app = try await engine.bootstrapSandbox().applicationKey
        let start = try await engine.eventRange(applicationKey: app).newest
        let cache = EventCache(engine: engine, maxAge: 60, capacity: 3)
        _ = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        for i in 0..<7 { try await engine.pushInbox(user: "demo", topic: nil, title: nil, body: "m\(i)", applicationKey: app) }
        var ids: [Int64] = []
        var last = start
        while true {
            let page = try await cache.frames(applicationKey: app, after: last, limit: 2, generation: engine.bell.generation)
            guard let end = page.last?.id else { break }
            ids += page.map(\.id)
            last = end
        }
        #expect(ids.count == 7)
        #expect(ids == ids.sorted() && Set(ids).count == 7)
    }

    @Test func theCacheKeepsWithinItsByteBoundOldestFirstAndASubscriberFromBeforeReadsTheRestFromTheDatabase() async throws {
        let folder = try TempDir("cache")
        let engine = try self.engine(in: folder)
        let app = try await engine.bootstrapSandbox().applicationKey
        let start = try await engine.eventRange(applicationKey: app).newest
        let cache = EventCache(engine: engine, maxAge: 60, maxBytes: 10_000)
        _ = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        // Ten events of about 3 KB each: thirty kilobytes, three times the bound, well under the count bound.
        for i in 0..<10 {
            try await engine.pushInbox(user: "demo", topic: nil, title: nil, body: String(repeating: "\(i)", count: 3000), applicationKey: app)
        }
        let newest = try await cache.frames(applicationKey: app, after: start, limit: 500, generation: engine.bell.generation)
        let held = cache.held
        #expect(held.bytes <= 10_000 && held.bytes > 0, "\(held)")
        #expect(held.frames < 10)
        // What the cache kept is the newest; a subscriber from the start still gets all ten, in order.
        #expect(newest.last?.id == (try await engine.eventRange(applicationKey: app).newest))
        let readsBefore = cache.databaseReads
        var ids: [Int64] = []
        var last = start
        while true {
            let page = try await cache.frames(applicationKey: app, after: last, limit: 3, generation: engine.bell.generation)
            guard let end = page.last?.id else { break }
            ids += page.map(\.id)
            last = end
        }
        #expect(ids.count == 10 && ids == ids.sorted() && Set(ids).count == 10)
        #expect(cache.databaseReads > readsBefore, "the evicted events came from the database")
    }

    @Test func bulksOfAThousandRecipientsAreKeptWithinTheByteBound() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let start = try await s.engine.eventRange(applicationKey: s.applicationKey).newest
        let cache = EventCache(engine: s.engine, maxAge: 60, maxBytes: 400_000)
        _ = try await cache.frames(applicationKey: s.applicationKey, after: start, limit: 500, generation: s.engine.bell.generation)
        for bulk in 0..<4 { _ = try await s.invite(1000, key: s.sender, from: bulk * 1000) }
        let frames = try await cache.frames(applicationKey: s.applicationKey, after: start, limit: 500, generation: s.engine.bell.generation)
        let largest = frames.map(\.frame.readableBytes).max() ?? 0
        let held = cache.held
        print("event cache: largest frame \(largest) bytes; kept \(held.frames) frames, \(held.bytes) bytes of a 400,000-byte bound")
        #expect(largest > 100_000, "a thousand-recipient bulk makes a frame of \(largest) bytes")
        #expect(held.bytes <= 400_000)
    }
}
