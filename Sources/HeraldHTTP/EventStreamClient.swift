import AsyncHTTPClient
import Foundation
import HeraldAPI
import Logging
import NIOCore

/// Follows a Herald server's events the ICWS way: reads `/1/features`; messaging ≥ 2 subscribes to the
/// server-sent events of `/1/events`, else short-polls `/1/messaging/messages` about once a second. It
/// reconnects with backoff and resumes after the last event id it saw, so nothing in between is lost.
public struct EventStreamClient: PlatformEventSource {
    public let baseURL: URL
    public let key: String
    /// Seconds without a byte (not even a heartbeat) after which the stream is taken for dead.
    public var idleTimeout: TimeInterval
    public var pollInterval: TimeInterval
    public var maxBackoff: TimeInterval
    /// Most bytes one event may take, its lines together: a server that sends more (an endless line, endless `data:`
    /// lines) is cut off and the stream opened again, as after any other failure, instead of growing without bound.
    public var maxEventBytes: Int = 4 << 20
    let client: HTTPClient
    let log = Logger(label: "herald.events")

    public init(baseURL: URL, key: String, idleTimeout: TimeInterval = 45, pollInterval: TimeInterval = 1,
                maxBackoff: TimeInterval = 15, client: HTTPClient = .shared) {
        self.baseURL = baseURL
        self.key = key
        self.idleTimeout = idleTimeout
        self.pollInterval = pollInterval
        self.maxBackoff = maxBackoff
        self.client = client
    }

    /// A stream reader that trusts the CA certificates of `caFile` besides the system's.
    public init(baseURL: URL, key: String, caFile: String?) throws(APIError) {
        self.init(baseURL: baseURL, key: key, client: try ServerTrust.client(caFile: caFile))
    }

    public func follow(after start: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async {
        var lastEventId: Int64? = start ?? 0
        var failures = 0
        while !Task.isCancelled {
            do {
                let transport = HTTPTransport(baseURL: baseURL, client: client)
                let features = try await PlatformClientCall.send(GetServerFeatures(key: key), over: transport)
                if features.messaging >= 2 {
                    try await stream(after: &lastEventId, failures: &failures, handle)
                } else {
                    try await poll(after: &lastEventId, failures: &failures, transport: transport, handle)
                }
            } catch {
                if Task.isCancelled { return }
                failures += 1
                let wait = min(maxBackoff, 0.5 * pow(2, Double(min(failures, 10) - 1)))
                let reason = (error as? APIError)?.description ?? "\(error)"
                log.info("event stream lost", metadata: ["reason": "\(reason)", "retryIn": "\(wait)"])
                await handle(.link(failures >= 4 ? .offline(reason: reason) : .reconnecting(retryIn: wait, reason: reason)))
                try? await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
    }

    /// Reads `/1/events` until it ends or goes quiet for `idleTimeout`.
    private func stream(after lastEventId: inout Int64?, failures: inout Int,
                        _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async throws {
        var request = HTTPClientRequest(url: HTTPTransport.url(baseURL, path: "/1/events", query: []))
        request.headers.add(name: "Authorization", value: Credential.app(key).headerValue)
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let lastEventId { request.headers.add(name: "Last-Event-ID", value: String(lastEventId)) }
        let response = try await client.execute(request, deadline: .distantFuture)
        guard response.status.code == 200 else {
            let body = try await response.body.collect(upTo: 1 << 16)
            throw APIError(response: APIResponse(status: Int(response.status.code), body: Data(body.readableBytesView)))
        }
        failures = 0
        await handle(.link(.connected))
        let activity = Activity()
        var parser = ServerSentEventParser(maxLineBytes: maxEventBytes)
        var last = lastEventId
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [idleTimeout] in
                while true {
                    try await Task.sleep(nanoseconds: 1_000_000_000)
                    if activity.idleFor > idleTimeout { throw APIError.timeout }
                }
            }
            for try await buffer in response.body {
                activity.touch()
                for message in parser.feed(buffer.readableBytesView) {
                    let id = message.id.flatMap(Int64.init)
                    if let id { last = id }
                    await deliver(message, id: id, handle)
                }
                if parser.pendingBytes > maxEventBytes {
                    let why = "the server sent an event longer than \(maxEventBytes) bytes; the stream is dropped and opened again"
                    log.error("event stream: an event is too long", metadata: ["limit": "\(maxEventBytes)", "url": "\(baseURL.absoluteString)"])
                    throw APIError.transport(why)
                }
            }
            group.cancelAll()
        }
        lastEventId = last
        throw APIError.transport("the event stream ended")
    }

    private func deliver(_ message: ServerSentEvent, id: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async {
        switch message.event {
        case "ready": return
        case "reset": await handle(.reset)
        default:
            do { await handle(.event(try HeraldJSON.decode(PlatformEvent.self, from: Data(message.data.utf8)), id: id)) } catch {
                log.warning("unreadable event skipped", metadata: ["event": "\(message.event)", "cause": "\(error)"])
            }
        }
    }

    /// Short-polls `/1/messaging/messages` until a call fails.
    private func poll(after lastEventId: inout Int64?, failures: inout Int, transport: HTTPTransport,
                      _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async throws {
        var connected = false
        while !Task.isCancelled {
            let batch = try await PlatformClientCall.send(GetEventQueue(key: key, after: lastEventId), over: transport)
            if !connected {
                connected = true
                failures = 0
                await handle(.link(.connected))
            }
            if batch.reset, lastEventId != nil { await handle(.reset) }
            for queued in batch.messages { await handle(.event(queued.event, id: queued.id)) }
            lastEventId = batch.lastEventId
            if batch.messages.count < 500 { try await Task.sleep(nanoseconds: UInt64(pollInterval * 1_000_000_000)) }
        }
    }
}

/// When the stream last gave a byte.
final class Activity: @unchecked Sendable {
    private let lock = NSLock()
    private var last = Date()

    func touch() { lock.withLock { last = Date() } }
    var idleFor: TimeInterval { lock.withLock { Date().timeIntervalSince(last) } }
}

/// Sends one endpoint over a transport and decodes its answer.
enum PlatformClientCall {
    static func send<E: Endpoint>(_ endpoint: E, over transport: some PlatformTransport) async throws(APIError) -> E.Response {
        try endpoint.decode(try await transport.send(try endpoint.request()))
    }
}
