import Foundation

/// Hands service events to any number of subscribers.
///
/// `publish` is synchronous and may be called from any thread or actor. Each subscriber sees
/// events in the order the bus accepted them. Two kinds of subscriber:
/// - `stream()`: an `AsyncStream` for async code (`herald watch`, view-model tasks); the
///   subscription ends when the stream's consumer is cancelled or the stream is dropped;
/// - `subscribe(_:)`: a callback for a non-async thread (the terminal UI posts into its mailbox);
///   it runs on the publishing thread, one event at a time per subscriber, and must be quick.
///   The subscription ends when the returned `EventSubscription` is cancelled or released.
///
/// The tracker's state is a state, not a happening: a new subscriber gets the latest one first, so a screen that
/// subscribes after the tracker spoke does not take it for idle until it speaks again.
public final class EventBus: @unchecked Sendable {
    private enum Sink {
        case stream(AsyncStream<HeraldEvent>.Continuation)
        case callback(CallbackSink)
    }

    private let lock = NSLock()
    private var sinks: [UInt64: Sink] = [:]
    private var nextId: UInt64 = 0
    private var closed = false
    /// The latest `.trackerState`, handed to each new subscriber.
    private var latestState: HeraldEvent?

    public init() {}

    /// How many subscriptions are live.
    public var subscriberCount: Int { lock.withLock { sinks.count } }

    /// Sends `event` to every current subscriber.
    public func publish(_ event: HeraldEvent) {
        var toDrain: [CallbackSink] = []
        lock.withLock {
            guard !closed else { return }
            if case .trackerState = event { latestState = event }
            for sink in sinks.values {
                switch sink {
                case .stream(let continuation):
                    continuation.yield(event)
                case .callback(let callback):
                    callback.enqueue(event)
                    toDrain.append(callback)
                }
            }
        }
        for callback in toDrain { callback.drain() }
    }

    /// A new subscription as an async sequence of events published from now on.
    public func stream(
        bufferingPolicy: AsyncStream<HeraldEvent>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<HeraldEvent> {
        let (stream, continuation) = AsyncStream<HeraldEvent>.makeStream(bufferingPolicy: bufferingPolicy)
        let id: UInt64? = lock.withLock {
            guard !closed else { return nil }
            let id = nextId
            nextId += 1
            sinks[id] = .stream(continuation)
            if let latestState { continuation.yield(latestState) }
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// A new callback subscription. Keep the returned value: releasing it unsubscribes.
    public func subscribe(_ handler: @escaping @Sendable (HeraldEvent) -> Void) -> EventSubscription {
        let sink = CallbackSink(handler)
        let id: UInt64? = lock.withLock {
            guard !closed else { return nil }
            let id = nextId
            nextId += 1
            sinks[id] = .callback(sink)
            if let latestState { sink.enqueue(latestState) }
            return id
        }
        guard let id else {
            sink.cancel()
            return EventSubscription {}
        }
        sink.drain()
        return EventSubscription { [weak self] in self?.remove(id) }
    }

    /// Ends every subscription (streams finish) and ignores later events.
    public func close() {
        let removed: [Sink] = lock.withLock {
            closed = true
            defer { sinks.removeAll() }
            return Array(sinks.values)
        }
        for sink in removed { Self.end(sink) }
    }

    private func remove(_ id: UInt64) {
        let removed = lock.withLock { sinks.removeValue(forKey: id) }
        if let removed { Self.end(removed) }
    }

    private static func end(_ sink: Sink) {
        switch sink {
        case .stream(let continuation): continuation.finish()
        case .callback(let callback): callback.cancel()
        }
    }
}

/// A callback subscription; cancelling it (or releasing it) stops further deliveries.
public final class EventSubscription: @unchecked Sendable {
    private let lock = NSLock()
    private var onCancel: (@Sendable () -> Void)?

    init(_ onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Unsubscribes. Safe to call more than once and from inside the callback.
    public func cancel() {
        let action = lock.withLock {
            defer { onCancel = nil }
            return onCancel
        }
        action?()
    }

    deinit { cancel() }
}

/// One callback subscriber's queue. Whichever thread finds it idle delivers everything queued,
/// so deliveries never overlap and keep the order of `enqueue`, even when a callback publishes.
private final class CallbackSink: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [HeraldEvent] = []
    private var head = 0
    private var draining = false
    private var cancelled = false
    private let handler: @Sendable (HeraldEvent) -> Void

    init(_ handler: @escaping @Sendable (HeraldEvent) -> Void) {
        self.handler = handler
    }

    func enqueue(_ event: HeraldEvent) {
        lock.withLock {
            if !cancelled { pending.append(event) }
        }
    }

    func cancel() {
        lock.withLock {
            cancelled = true
            pending.removeAll()
            head = 0
        }
    }

    func drain() {
        let start: Bool = lock.withLock {
            if draining { return false }
            draining = true
            return true
        }
        guard start else { return }
        while let event = next() {
            handler(event)
        }
    }

    /// The next queued event, or nil after marking the sink idle.
    private func next() -> HeraldEvent? {
        lock.withLock {
            guard !cancelled, head < pending.count else {
                pending.removeAll(keepingCapacity: true)
                head = 0
                draining = false
                return nil
            }
            let event = pending[head]
            head += 1
            return event
        }
    }
}
