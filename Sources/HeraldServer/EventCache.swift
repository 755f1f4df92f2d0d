import Foundation
import HeraldEngine
import NIOCore

/// The recent events of each application as ready-made event-stream frames, read from the database once for every
/// subscriber: when a commit wakes a thousand subscribers, one of them reads what is new and the others wait for that
/// read instead of making their own. A read counts for a caller when it started after the bell's last ring the caller
/// saw, and less than `maxAge` seconds ago (commits of other processes on one SQLite file do not ring this bell).
/// The newest `capacity` events per application are kept, and `maxBytes` of frames in all (one bulk of a thousand
/// recipients makes a frame of a quarter megabyte, so a count alone bounds nothing); the oldest go first, and a
/// subscriber further behind reads the database itself.
final class EventCache: @unchecked Sendable {
    typealias Frame = (id: Int64, frame: ByteBuffer)

    private struct Ring {
        /// Every event with an id above `floor` up to `cursor` is in `frames`, in order.
        var floor: Int64
        var cursor: Int64
        var frames: [Frame] = []
        /// Bytes of `frames`.
        var bytes = 0

        mutating func append(_ more: [Frame]) {
            frames += more
            bytes += more.reduce(0) { $0 + $1.frame.readableBytes }
            cursor = more.last?.id ?? cursor
        }

        /// Drops the oldest frames until at most `count` are left holding at most `limit` bytes.
        mutating func trim(count: Int, bytes limit: Int) {
            var dropped = 0
            var freed = 0
            while dropped < frames.count, frames.count - dropped > count || bytes - freed > limit {
                freed += frames[dropped].frame.readableBytes
                dropped += 1
            }
            guard dropped > 0 else { return }
            floor = frames[dropped - 1].id
            frames.removeFirst(dropped)
            bytes -= freed
        }
    }

    private struct Load {
        var started: UInt64
        var generation: UInt64
        var task: Task<Void, any Error>?
    }

    let engine: PlatformEngine
    let maxAge: TimeInterval
    let capacity: Int
    let maxBytes: Int
    private let lock = NSLock()
    private var rings: [String: Ring] = [:]
    private var loads: [String: Load] = [:]
    /// Database reads made (for tests and the bench).
    private(set) var reads = 0
    /// Frames with numbers masked, by application and event id: an event is masked once for all viewers.
    private var masked: [String: [Int64: ByteBuffer]] = [:]
    private var maskedCount = 0
    private var maskedBytes = 0

    init(engine: PlatformEngine, maxAge: TimeInterval, capacity: Int = 10_000, maxBytes: Int = 64 << 20) {
        self.engine = engine
        self.maxAge = maxAge
        self.capacity = capacity
        self.maxBytes = max(0, maxBytes)
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

    /// `frames` as a caller who sees numbers masked receives them (`NumberMasking`); each event is masked once for
    /// every such caller, the masks kept within `capacity` frames and `maxBytes` (all dropped when either is reached).
    func masking(_ frames: [Frame], applicationKey: String) -> [Frame] {
        frames.map { frame in
            if let known = lock.withLock({ masked[applicationKey]?[frame.id] }) { return (frame.id, known) }
            let buffer = EventFrameMask.masked(frame.frame)
            lock.withLock {
                if maskedCount >= capacity || maskedBytes + buffer.readableBytes > maxBytes {
                    masked.removeAll(keepingCapacity: true)
                    (maskedCount, maskedBytes) = (0, 0)
                }
                if masked[applicationKey, default: [:]].updateValue(buffer, forKey: frame.id) == nil {
                    maskedCount += 1
                    maskedBytes += buffer.readableBytes
                }
            }
            return (frame.id, buffer)
        }
    }

    /// Bytes of frames kept now, and how many frames (for tests and the bench).
    var held: (bytes: Int, frames: Int) {
        lock.withLock { (rings.values.reduce(0) { $0 + $1.bytes }, rings.values.reduce(0) { $0 + $1.frames.count }) }
    }

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
            ring.append(batch.map(Self.frame))
            // Trimmed as it grows, so a long catch-up never holds more than the bound plus one batch.
            ring.trim(count: capacity, bytes: maxBytes)
            if batch.count < 1000 { break }
        }
        let kept = ring
        lock.withLock {
            rings[app] = kept
            trimAll()
        }
    }

    /// Keeps every application's frames together within `maxBytes`: the ring holding most gives up its oldest first.
    /// Called under the lock.
    private func trimAll() {
        var total = rings.values.reduce(0) { $0 + $1.bytes }
        while total > maxBytes, let (app, ring) = rings.max(by: { $0.value.bytes < $1.value.bytes }) {
            var trimmed = ring
            // Down to the larger of an even share and what the others leave: at least one frame goes each time.
            let others = total - ring.bytes
            trimmed.trim(count: capacity, bytes: min(ring.bytes - 1, max(maxBytes - others, maxBytes / max(1, rings.count))))
            rings[app] = trimmed
            total = others + trimmed.bytes
        }
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
