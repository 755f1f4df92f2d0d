import Foundation
import HeraldEngine
@testable import HeraldServer
import Testing

/// One database read for every subscriber a commit wakes, frames in order, and a subscriber far behind still gets
/// everything (from the database).
@Suite struct EventCacheTests {
    func engine() throws -> (PlatformEngine, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-cache-\(UUID().uuidString)")
        return (try PlatformEngine.open(at: folder.appendingPathComponent("engine.sqlite")), folder)
    }

    @Test func fiftySubscribersWokenByOneCommitCauseOneReadAndAllGetItsEvent() async throws {
        let (engine, folder) = try engine()
        defer { try? FileManager.default.removeItem(at: folder) }
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
        let (engine, folder) = try engine()
        defer { try? FileManager.default.removeItem(at: folder) }
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
}
