import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

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

/// First on every connection (after TLS), on raw bytes: refuses a connection beyond the server's cap with a 503 and
/// one beyond its client's share with a 429, gives a client `headerTimeout` seconds from the connection's start (and,
/// on a kept-alive connection, from the first byte of each later request) to the end of a request head, and closes
/// the connection when the client closed its side. The deadline is never renewed by more bytes of the same head, so
/// neither silence nor a trickle holds a slot longer.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let count: ConnectionCount
    private let phase: RequestPhase
    private let headerTimeout: TimeInterval
    private let plain: Bool
    /// The client this connection is counted for, once admitted.
    private var counted: String?

    /// `plain`: the connection is not TLS, so a refusal can be answered in plain HTTP.
    init(count: ConnectionCount, phase: RequestPhase, headerTimeout: TimeInterval, plain: Bool) {
        self.count = count
        self.phase = phase
        self.headerTimeout = headerTimeout
        self.plain = plain
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let client = ConnectionCount.client(of: context.channel.remoteAddress)
        switch count.admit(client) {
        case .admitted:
            counted = client
            // The first request's head is due `headerTimeout` after the connection opened, not after its first byte:
            // a socket that sends nothing gives its slot back as soon as one that sends half a head.
            phase.phase = .head
            phase.arm(context, after: headerTimeout)
        case .full:
            refuse(context, status: "503 Service Unavailable", messageId: "SERVICE_UNAVAILABLE", text: "too many connections, try again")
        case .clientFull:
            refuse(context, status: "429 Too Many Requests", messageId: "TOO_MANY_REQUESTS", text: """
                this address has \(count.perClient) connections open, the most one client may; close one or try again
                """)
        }
    }

    /// Answers a refused connection (in plain HTTP when it is not TLS) and closes it; nothing of it is read.
    private func refuse(_ context: ChannelHandlerContext, status: String, messageId: String, text: String) {
        guard plain else { return context.close(promise: nil) }
        let body = #"{"requestError":{"serviceException":{"messageId":"\#(messageId)","text":"\#(text)"}}}"#
        let head = "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Retry-After: 1\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head + body))).whenComplete { _ in channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let counted { count.release(counted); self.counted = nil }
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
        guard counted != nil else { return }   // a refused connection reads nothing
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
