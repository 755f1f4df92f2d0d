import Foundation
import HeraldAPI
import HeraldEngine
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// One subscriber of `/1/events`: replays what it missed (after `Last-Event-ID`), then follows new events as
/// commits ring the engine's bell, with a heartbeat comment while idle. A subscriber that stops reading is
/// dropped once `subscriberBuffer` frames wait for it, never buffered without bound.
struct EventStream {
    let engine: PlatformEngine
    let applicationKey: String
    /// The key the stream was opened with: its revocation ends the stream.
    let keyId: String
    let options: ServerOptions
    let metrics: ServerMetrics
    let revocations: KeyRevocations
    /// Recent events, read once for every subscriber.
    let cache: EventCache
    /// The key's slot for this stream, given back when the stream ends.
    let slot: StreamSlot
    let log: Logger
    /// Whether the subscriber sees numbers and addresses masked (a viewer key under `--mask-numbers-for-viewers`).
    var masksNumbers = false

    static let batch = 500

    /// The body of the stream; `lastEventId` nil starts with the events to come. The stream ends when `closing`
    /// completes (the subscriber's connection closed: released at once, not at the next failed write), when its key
    /// is revoked, or when the server stops.
    func body(after lastEventId: Int64?, closing: EventLoopFuture<Void>) async throws -> ResponseBody {
        let (current, oldest) = try await engine.eventRange(applicationKey: applicationKey)
        var preamble = "retry: 2000\n\n"
        var start = current
        if let lastEventId {
            if let oldest, lastEventId < oldest - 1 {
                // Events the subscriber missed were pruned: it must read everything again.
                preamble += Self.frame(id: current, event: "reset", data: #"{"lastEventId":\#(current)}"#)
            } else {
                start = min(lastEventId, current)
            }
        } else {
            preamble += Self.frame(id: current, event: "ready", data: #"{"lastEventId":\#(current)}"#)
        }
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingOldest(options.subscriberBuffer))
        continuation.yield(ByteBuffer(string: preamble))
        let signal = engine.bell.listen()
        let state = StreamState()
        let producer = Task { [engine, cache, applicationKey, keyId, options, metrics, revocations, log, masksNumbers] in
            metrics.subscriberJoined()
            defer { metrics.subscriberLeft() }
            await withGracefulShutdownHandler {
                var last = start
                var idleSince = Date()
                while !Task.isCancelled, !state.isClosed {
                    if revocations.isRevoked(keyId) {
                        log.notice("event stream ended: its key was revoked", metadata: ["key": "\(keyId)"])
                        break
                    }
                    var events: [EventCache.Frame]
                    do {
                        events = try await cache.frames(applicationKey: applicationKey, after: last, limit: Self.batch,
                                                        generation: engine.bell.generation)
                        if masksNumbers { events = cache.masking(events, applicationKey: applicationKey) }
                    } catch {
                        if error is CancellationError || Task.isCancelled || state.isClosed { break }
                        log.error("event stream read failed", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                        break
                    }
                    for event in events {
                        guard case .enqueued = continuation.yield(event.frame) else {
                            metrics.subscriberDropped()
                            log.notice("event subscriber dropped: it stopped reading", metadata: ["after": "\(last)"])
                            continuation.finish()
                            return
                        }
                        last = event.id
                    }
                    if !events.isEmpty { idleSince = Date() }
                    if events.count == Self.batch { continue }
                    let heartbeatIn = options.heartbeat - Date().timeIntervalSince(idleSince)
                    if heartbeatIn <= 0 {
                        guard case .enqueued = continuation.yield(ByteBuffer(string: ": heartbeat\n\n")) else {
                            metrics.subscriberDropped()
                            continuation.finish()
                            return
                        }
                        idleSince = Date()
                        continue
                    }
                    await signal.wait(upTo: min(options.eventPoll, heartbeatIn))
                }
                continuation.finish()
            } onGracefulShutdown: {
                state.close()
                signal.signal()
            }
        }
        continuation.onTermination = { [slot] _ in
            slot.release()
            state.close()
            producer.cancel()
            signal.signal()
        }
        closing.whenComplete { _ in continuation.finish() }
        return ResponseBody(asyncSequence: stream)
    }

    static func frame(id: Int64, event: String, data: String) -> String {
        "id: \(id)\nevent: \(event)\ndata: \(data)\n\n"
    }
}

/// Whether a stream was closed (by its subscriber leaving or the server stopping).
final class StreamState: @unchecked Sendable {
    private let lock = NSLock()
    private var closed = false

    var isClosed: Bool { lock.withLock { closed } }
    func close() { lock.withLock { closed = true } }
}
