import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The connections a server has open, shared by every connection's guard.
final class ConnectionCount: @unchecked Sendable {
    let limit: Int
    private let lock = NSLock()
    private var open = 0

    init(limit: Int) { self.limit = limit }

    /// Counts a new connection; false (nothing counted) when `limit` are open already.
    func admit() -> Bool {
        lock.withLock {
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    func release() { lock.withLock { open -= 1 } }

    var current: Int { lock.withLock { open } }
}

/// Where a connection is in its current request, shared by its two guards (they run on its one event loop).
final class RequestPhase: @unchecked Sendable {
    enum Phase { case idle, head, body }
    var phase = Phase.idle
    var deadline: Scheduled<Void>?

    func arm(_ context: ChannelHandlerContext, after seconds: TimeInterval) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { channel.close(promise: nil) }
    }

    func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

/// First on every connection (after TLS), on raw bytes: refuses a connection beyond the server's cap with a 503,
/// gives a client `headerTimeout` seconds from the first byte of a request to the end of its head, and closes the
/// connection when the client closed its side.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let count: ConnectionCount
    private let phase: RequestPhase
    private let headerTimeout: TimeInterval
    private let plain: Bool
    private var counted = false

    /// `plain`: the connection is not TLS, so a refusal can be answered in plain HTTP.
    init(count: ConnectionCount, phase: RequestPhase, headerTimeout: TimeInterval, plain: Bool) {
        self.count = count
        self.phase = phase
        self.headerTimeout = headerTimeout
        self.plain = plain
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard count.admit() else {
            if plain {
                let body = #"{"requestError":{"serviceException":{"messageId":"SERVICE_UNAVAILABLE","text":"too many connections, try again"}}}"#
                let head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Retry-After: 1\r\nConnection: close\r\n\r\n"
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head + body))).whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
            return
        }
        counted = true
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if counted { count.release(); counted = false }
        phase.disarm()
    }

    /// The client closed its side: nothing more can be asked on this connection, and an event stream it was
    /// reading has nobody left to read it. Closing now releases the stream at once instead of at its next write.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard counted else { return }          // a refused connection reads nothing
        if phase.phase == .idle {
            phase.phase = .head
            phase.arm(context, after: headerTimeout)
        }
        context.fireChannelRead(data)
    }
}

/// After the HTTP codec: ends the head deadline when a head arrives, gives the body `bodyTimeout` seconds to arrive
/// whole, and closes the connection after a response that says `Connection: close` (an unread body is not drained).
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let phase: RequestPhase
    private let bodyTimeout: TimeInterval
    private var closeAfterResponse = false

    init(phase: RequestPhase, bodyTimeout: TimeInterval) {
        self.phase = phase
        self.bodyTimeout = bodyTimeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            phase.phase = .body
            phase.arm(context, after: bodyTimeout)
        case .body:
            break
        case .end:
            phase.phase = .idle
            phase.disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            if response.headerFields[.connection]?.lowercased() == "close" { closeAfterResponse = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterResponse else { return context.write(data, promise: promise) }
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }
}
