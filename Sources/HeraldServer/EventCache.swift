import Foundation
import HeraldEngine
import NIOCore

/// The recent events of each application as ready-made event-stream frames, read from the database once for every
/// subscriber: when a commit wakes a thousand subscribers, one of them reads what is new and the others wait for that
/// read instead of making their own. A read counts for a caller when it started after the bell's last ring the caller
/// saw, and less than `maxAge` seconds ago (commits of other processes on one SQLite file do not ring this bell).
/// The newest `capacity` events per application are kept; a subscriber further behind reads the database itself.
final class EventCache: @unchecked Sendable {
    typealias Frame = (id: Int64, frame: ByteBuffer)

    private struct Ring {
        /// Every event with an id above `floor` up to `cursor` is in `frames`, in order.
        var floor: Int64
        var cursor: Int64
        var frames: [Frame] = []
    }

    private struct Load {
        var started: UInt64
        var generation: UInt64
        var task: Task<Void, any Error>?
    }

    let engine: PlatformEngine
    let maxAge: TimeInterval
    let capacity: Int
    private let lock = NSLock()
    private var rings: [String: Ring] = [:]
    private var loads: [String: Load] = [:]
    /// Database reads made (for tests and the bench).
    private(set) var reads = 0

    init(engine: PlatformEngine, maxAge: TimeInterval, capacity: Int = 10_000) {
        self.engine = engine
        self.maxAge = maxAge
        self.capacity = capacity
    }

    /// Frames of the events after `id`, at most `limit`, as fresh as the bell's `generation`.
    func frames(applicationKey: String, after id: Int64, limit: Int, generation: UInt64) async throws -> [Frame] {
        try await refresh(applicationKey, generation: generation)
        let cached = lock.withLock { () -> [Frame]? in
            guard let ring = rings[applicationKey], id >= ring.floor else { return nil }
            let start = Self.firstIndex(after: id, in: ring.frames)
            return Array(ring.frames[start..<min(ring.frames.count, start + limit)])
        }
        if let cached { return cached }
        lock.withLock { reads += 1 }
        return try await engine.events(applicationKey: applicationKey, after: id, limit: limit).map(Self.frame)
    }

    var databaseReads: Int { lock.withLock { reads } }

    private func refresh(_ app: String, generation: UInt64) async throws {
        while true {
            let (task, fresh) = lock.withLock { () -> (Task<Void, any Error>?, Bool) in
                let now = DispatchTime.now().uptimeNanoseconds
                let newest = loads[app]
                // Read under the lock, so no load started after `now` (the clock is monotonic); never a trap regardless.
                let recent = newest.map {
                    $0.generation >= generation && now.subtractingReportingOverflow($0.started).partialValue < UInt64(maxAge * 1e9)
                } ?? false
                if let running = newest?.task { return (running, recent) }
                if recent { return (nil, true) }
                let task = Task { try await self.load(app) }
                loads[app] = Load(started: now, generation: engine.bell.generation, task: task)
                return (task, true)
            }
            try await task?.value
            if fresh { return }
        }
    }

    private func load(_ app: String) async throws {
        defer { lock.withLock { loads[app]?.task = nil } }
        var ring: Ring
        if let kept = lock.withLock({ rings[app] }) { ring = kept } else {
            let newest = try await engine.eventRange(applicationKey: app).newest
            ring = Ring(floor: newest, cursor: newest)
        }
        while true {
            let batch = try await engine.events(applicationKey: app, after: ring.cursor, limit: 1000)
            lock.withLock { reads += 1 }
            ring.frames += batch.map(Self.frame)
            ring.cursor = batch.last?.id ?? ring.cursor
            if batch.count < 1000 { break }
        }
        if ring.frames.count > capacity {
            let dropped = ring.frames.count - capacity
            ring.floor = ring.frames[dropped - 1].id
            ring.frames.removeFirst(dropped)
        }
        let kept = ring
        lock.withLock { rings[app] = kept }
    }

    /// Index of the first frame with an id above `id`.
    private static func firstIndex(after id: Int64, in frames: [Frame]) -> Int {
        var low = 0, high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func frame(_ event: StoredEvent) -> Frame {
        (event.id, ByteBuffer(string: "id: \(event.id)\nevent: \(event.type)\ndata: \(String(decoding: event.payload, as: UTF8.self))\n\n"))
    }
}
