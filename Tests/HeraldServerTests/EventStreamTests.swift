import Foundation
import HeraldAPI
import HeraldHTTP
import HeraldServer
import HeraldTestKit
import Testing

/// What a subscriber collected.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [(id: Int64?, event: PlatformEvent)] = []
    private var links: [PlatformLinkState] = []
    private var resets = 0

    func add(_ update: PlatformStreamUpdate) {
        lock.withLock {
            switch update {
            case .event(let e, let id): events.append((id, e))
            case .link(let l): links.append(l)
            case .reset: resets += 1
            }
        }
    }

    var ids: [Int64] { lock.withLock { events.compactMap(\.id) } }
    var deliveredMessages: Set<String> {
        lock.withLock {
            Set(events.flatMap { item -> [String] in
                if case .deliveryChanged(_, let infos, _, _, _) = item.event { return infos.compactMap(\.messageId) }
                return []
            })
        }
    }
    var connected: Bool { lock.withLock { links.contains(.connected) } }

    /// Waits until `condition` holds, up to `seconds`.
    func wait(_ seconds: Double = 10, until condition: (Collected) -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition(self) { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition(self)
    }
}

@Suite struct EventStreamTests {
    func follow(_ s: ServerHarness, after: Int64?, into collected: Collected) -> Task<Void, Never> {
        let client = EventStreamClient(baseURL: s.url, key: s.viewer)
        return Task { await client.follow(after: after) { collected.add($0) } }
    }

    @Test func aSubscriberThatReconnectsGetsWhatItMissedOnceAndInOrder() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let first = Collected()
        let task = follow(s, after: nil, into: first)
        #expect(await first.wait { $0.connected })
        let one = try await s.invite(5, key: s.sender)
        #expect(await first.wait { $0.deliveredMessages.isSuperset(of: one.responses.map(\.messageId)) })
        task.cancel()
        await task.value
        let lastSeen = try #require(first.ids.last)

        // Sent while nobody listened.
        let two = try await s.invite(5, key: s.sender, from: 100)
        let second = Collected()
        let resumed = follow(s, after: lastSeen, into: second)
        defer { resumed.cancel() }
        #expect(await second.wait { $0.deliveredMessages.isSuperset(of: two.responses.map(\.messageId)) })
        let ids = second.ids
        #expect(ids.first == lastSeen + 1)                               // no gap
        #expect(ids == Array(Set(ids)).sorted())                          // in order, never twice
        #expect(Set(first.ids).isDisjoint(with: ids))
    }

    @Test func withoutTheEventStreamFeatureTheClientShortPollsTheSameEvents() async throws {
        let s = try await ServerHarness(options: ServerOptions(host: "127.0.0.1", port: 0, messagingVersion: 1))
        defer { s.stop() }
        let collected = Collected()
        let task = follow(s, after: 0, into: collected)
        defer { task.cancel() }
        let sent = try await s.invite(3, key: s.sender)
        #expect(await collected.wait { $0.deliveredMessages.isSuperset(of: sent.responses.map(\.messageId)) })
        let ids = collected.ids
        #expect(ids == Array(Set(ids)).sorted())
    }

    /// How fast is measured by `herald-bench server`; here, that every subscriber gets it.
    @Test func aBulkReachesEverySubscriber() async throws {
        let s = try await ServerHarness(timeScale: 1)
        defer { s.stop() }
        let subscribers = (0..<5).map { _ in Collected() }
        let tasks = subscribers.map { follow(s, after: nil, into: $0) }
        defer { tasks.forEach { $0.cancel() } }
        for c in subscribers { #expect(await c.wait { $0.connected }) }
        let sent = try await s.invite(1, key: s.sender)
        for c in subscribers {
            #expect(await c.wait { $0.deliveredMessages.contains(sent.responses[0].messageId) })
        }
    }

    @Test func aKeyHoldsAtMostItsShareOfEventStreamsAndAClosedOneIsFreedForItsNext() async throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maxStreamsPerKey = 2
        let s = try await ServerHarness(options: options)
        defer { s.stop() }
        func open(_ key: String) -> RawConnection? {
            guard let c = try? RawConnection(port: s.port) else { return nil }
            c.send("GET /1/events HTTP/1.1\r\nHost: x\r\nAuthorization: App \(key)\r\n\r\n")
            return c
        }
        func ready(_ c: RawConnection?) async -> Bool {
            guard let c else { return false }
            let first = await c.read(timeout: 5) { String(decoding: $0, as: UTF8.self).contains("event: ready") }
            return String(decoding: first.data, as: UTF8.self).contains("event: ready")
        }
        let one = open(s.viewer), two = open(s.viewer)
        #expect(await ready(one))
        #expect(await ready(two))
        let third = try #require(open(s.viewer))
        let refused = await third.response(timeout: 5)
        #expect(refused.status == 429)
        #expect(refused.head.lowercased().contains("retry-after: 10"))
        #expect(refused.body.contains("TOO_MANY_REQUESTS") && refused.body.contains("2 event streams open"), "\(refused.body)")
        // Another key has its own share.
        #expect(await ready(open(s.sender)))
        // A stream that ends gives its slot back: the viewer's next stream opens.
        one?.close()
        var reopened = false
        let end = Date().addingTimeInterval(5)
        while !reopened, Date() < end {
            let next = open(s.viewer)
            reopened = await ready(next)
            if !reopened { try await Task.sleep(nanoseconds: 50_000_000) }
            withExtendedLifetime(next) {}
        }
        #expect(reopened)
        withExtendedLifetime(two) {}
    }
}
