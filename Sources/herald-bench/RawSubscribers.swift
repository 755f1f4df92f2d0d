import Foundation
#if canImport(Glibc)
import Glibc
import HeraldTestKit
#endif

/// Many `/1/events` subscribers on raw sockets, all read by one thread with `poll()`, each noting when each bulk id
/// first shows in its stream. A thousand terminals run on a thousand machines; in one process an HTTP
/// client and a JSON decoder per subscriber would measure the bench, not the server, so this scans bytes instead.
final class RawSubscribers: @unchecked Sendable {
    private let connections: [RawConnection]
    private let lock = NSLock()
    private var awaited: [String: UInt64] = [:]
    /// When each subscriber first saw each bulk its stream named, by subscriber.
    private var seen: [[String: UInt64]]
    private var tails: [[UInt8]]
    private var ready: Set<Int> = []
    private var stopped = false

    init(port: Int, key: String, count: Int) throws {
        connections = try (0..<count).map { _ in
            let c = try RawConnection(port: port)
            guard c.send("GET /1/events HTTP/1.1\r\nHost: bench\r\nAuthorization: App \(key)\r\n\r\n") else {
                throw BenchError("a subscriber could not ask for the stream")
            }
            return c
        }
        tails = Array(repeating: [], count: count)
        seen = Array(repeating: [:], count: count)
        Thread { self.readLoop() }.start()
    }

    /// Times `bulkId` from `start` (arrivals before the call count too).
    func expect(_ bulkId: String, at start: UInt64) { lock.withLock { awaited[bulkId] = start } }

    /// Subscribers whose stream has begun.
    var connected: Int { lock.withLock { ready.count } }

    func count(_ bulkId: String) -> Int { lock.withLock { seen.reduce(0) { $0 + ($1[bulkId] == nil ? 0 : 1) } } }

    func latencies(_ bulkId: String) -> [Double] {
        lock.withLock {
            guard let start = awaited[bulkId] else { return [] }
            return seen.compactMap { $0[bulkId] }.map { Double($0 - start) / 1e6 }
        }
    }

    func stop() {
        lock.withLock { stopped = true }
        connections.forEach { $0.close() }
    }

    static let marker = Array(#""bulkId":""#.utf8)
    static let readyMarker = Array("event: ready".utf8)

    /// Where `needle` starts in `bytes` from `from` on, nil when it does not.
    static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int = 0) -> Int? {
        guard let first = needle.first, bytes.count - from >= needle.count else { return nil }
        return bytes.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pattern in
                var i = from
                while i <= hay.count - pattern.count {
                    if hay[i] == first, memcmp(hay.baseAddress! + i, pattern.baseAddress!, pattern.count) == 0 { return i }
                    i += 1
                }
                return nil
            }
        }
    }

    /// The values of `"bulkId":"…"` in `bytes`.
    static func bulkIds(in bytes: [UInt8]) -> [String] {
        var ids: [String] = []
        var at = 0
        while let found = find(marker, in: bytes, from: at) {
            let start = found + marker.count
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            ids.append(String(decoding: bytes[start..<end], as: UTF8.self))
            at = end
        }
        return ids
    }

    private func readLoop() {
        var polls = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        var begun = [Bool](repeating: false, count: polls.count)
        while !lock.withLock({ stopped }) {
            guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
            for i in polls.indices where polls[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { recv(polls[i].fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { polls[i].fd = -1; continue }
                let now = DispatchTime.now().uptimeNanoseconds
                var window = tails[i]
                window.append(contentsOf: buffer[0..<n])
                if !begun[i], Self.find(Self.readyMarker, in: window) != nil {
                    begun[i] = true
                    _ = lock.withLock { ready.insert(i) }
                }
                // Every bulk id the stream names, noted when first seen: a send's event may arrive before the
                // sender learns its bulk id.
                let ids = Self.bulkIds(in: window)
                if !ids.isEmpty {
                    lock.withLock { for id in ids where seen[i][id] == nil { seen[i][id] = now } }
                }
                tails[i] = Array(window.suffix(64))     // an id cut between two reads is found in the next
            }
        }
    }
}
