import Foundation
import HeraldCore
import HeraldEngine
import NIOCore
import NIOPosix
import NIOSSL

/// A server's `[smtp]` settings.
public struct SMTPSettings: Sendable, Hashable {
    public var host: String
    public var port: Int
    public var username: String?
    public var password: String?
    /// Upgrade the connection with STARTTLS before anything else is said (and refuse a server that does not offer it);
    /// off only for a relay on this machine.
    public var startTLS: Bool
    /// Trust these PEM certificates instead of the system's (a private CA).
    public var trustRootsFile: String?
    /// How long one reply may take; the end of the message gets ten times as long (RFC 5321 allows minutes).
    public var replyTimeout: TimeInterval

    public init(host: String, port: Int = 587, username: String? = nil, password: String? = nil, startTLS: Bool = true,
                trustRootsFile: String? = nil, replyTimeout: TimeInterval = 30) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.startTLS = startTLS
        self.trustRootsFile = trustRootsFile
        self.replyTimeout = replyTimeout
    }
}

/// The engine's mailer on a Herald server: each email invitation over SMTP (RFC 5321), one connection per message,
/// STARTTLS before credentials, AUTH PLAIN. What the server said decides: refused before the message was written
/// (connection, greeting, sender, recipient) is a failure with the server's words, a 5xx for good; a connection lost
/// after the message was written is "not known", never sent again on its own.
public struct SMTPMailer: Mailer {
    public let settings: SMTPSettings
    private let group: any EventLoopGroup

    public init(settings: SMTPSettings, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.settings = settings
        self.group = group
    }

    static let connectTimeout: Int64 = 10
    /// The message's own reply may take this many reply timeouts (the server checks it before it answers).
    static let messageReplyTimeouts: Double = 10
    static let quitTimeout: TimeInterval = 5

    /// The longest a hand-over can take, and a margin: the connection, the replies before the message (greeting,
    /// EHLO, STARTTLS, EHLO again, AUTH, MAIL, RCPT, DATA), the message's reply and QUIT.
    public var handOverLease: TimeInterval {
        Double(Self.connectTimeout) + settings.replyTimeout * (8 + Self.messageReplyTimeouts) + Self.quitTimeout + 30
    }

    public func send(_ message: EmailMessage) async -> MailHandOver {
        // Refused before connecting: AUTH without TLS would hand the password to anyone on the way.
        if settings.username != nil, !settings.startTLS, !LoopbackHost.contains(settings.host) {
            return .refused(reason: "Herald does not send the SMTP password to \(settings.host) in clear: set starttls = true "
                            + "(starttls = false only for a relay on this machine)", permanent: true)
        }
        let channel: any Channel
        let replies = SMTPReplies()
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(Self.connectTimeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(replies) }
                }
                .connect(host: settings.host, port: settings.port).get()
        } catch {
            return .refused(reason: "cannot reach the SMTP server \(settings.host):\(settings.port): \(error)", permanent: false)
        }
        defer { channel.close(promise: nil) }
        var conversation = SMTPConversation(channel: channel, replies: replies, timeout: settings.replyTimeout)
        do {
            try await handshake(&conversation)
            try await conversation.expect(nil, "MAIL FROM:<\(message.from.address)>", 250)
            try await conversation.expect(nil, "RCPT TO:<\(message.to[0].address)>", 250, 251)
            try await conversation.expect(nil, "DATA", 354)
        } catch let failure as SMTPFailure {
            return .refused(reason: failure.description, permanent: failure.permanent)
        } catch {
            return .refused(reason: "\(error)", permanent: false)
        }
        // From here on the server may have the message: only its reply says it does not.
        do {
            conversation.timeout = settings.replyTimeout * Self.messageReplyTimeouts
            try await conversation.expect(nil, Self.dotStuffed(message.rendered(lineEnding: "\r\n")) + ".", 250)
        } catch let failure as SMTPFailure where failure.code != nil {
            return .refused(reason: failure.description, permanent: failure.permanent)
        } catch {
            return .unknown(reason: "the SMTP server \(settings.host) did not confirm the message (\(error))")
        }
        // The message is taken; a QUIT the server does not answer changes nothing of that.
        conversation.timeout = Self.quitTimeout
        _ = try? await conversation.send("QUIT")
        return .accepted
    }

    /// Greeting, EHLO, STARTTLS (and EHLO again), AUTH.
    private func handshake(_ c: inout SMTPConversation) async throws {
        try await c.expect(nil, nil, 220)
        var features = try await c.expect(nil, "EHLO \(Self.localName)", 250).lines
        if settings.startTLS {
            guard features.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                throw SMTPFailure(code: nil, text: "the SMTP server \(settings.host) does not offer STARTTLS; nothing was sent in clear "
                                  + "(set starttls = false only for a relay on this machine)")
            }
            try await c.expect(nil, "STARTTLS", 220)
            var tls = TLSConfiguration.makeClientConfiguration()
            if let file = settings.trustRootsFile { tls.trustRoots = .file(file) }
            let context = try NIOSSLContext(configuration: tls)
            // An address is no name to ask for (SNI); the certificate is then checked against the address itself.
            let host = Self.isAddress(settings.host) ? nil : settings.host
            let channel = c.channel
            let replies = c.replies
            let server = settings.host
            try await channel.eventLoop.submit {
                // On the loop, in one step: whatever arrived after the `220` came in clear, so it is no reply of the server
                // behind TLS; kept, it would answer the commands sent over TLS (a man in the middle's "250", "235", "354").
                try replies.startTLS(server: server)
                try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: context, serverHostname: host),
                                                               position: .first)
            }.get()
            features = try await c.expect(nil, "EHLO \(Self.localName)", 250).lines
        }
        if let user = settings.username {
            guard features.contains(where: { $0.uppercased().hasPrefix("AUTH") && $0.uppercased().contains("PLAIN") }) else {
                throw SMTPFailure(code: nil, text: "the SMTP server \(settings.host) does not offer AUTH PLAIN"
                                  + (settings.startTLS ? "" : " without TLS (set starttls = true)"))
            }
            let token = Data("\0\(user)\0\(settings.password ?? "")".utf8).base64EncodedString()
            try await c.expect("AUTH PLAIN", "AUTH PLAIN \(token)", 235)
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { UInt8($0) != nil }
    }

    static let localName: String = {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty || name.contains(" ") ? "herald.localhost" : name
    }()

    /// The message with every line that starts with "." doubled (RFC 5321 4.5.2), ending in CRLF.
    static func dotStuffed(_ text: String) -> String {
        var out = text.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n")
        if !out.hasSuffix("\r\n") { out += "\r\n" }
        return out
    }
}

/// A reply the conversation did not want, or no reply.
struct SMTPFailure: Error, CustomStringConvertible {
    var code: Int?
    var text: String
    var permanent: Bool { (code ?? 0) >= 500 }
    var description: String { code.map { "SMTP \($0): \(text)" } ?? text }
}

/// One reply: its code and its lines (without the code).
struct SMTPReply: Sendable {
    var code: Int
    var lines: [String]
}

/// Commands and their replies over one connection.
struct SMTPConversation {
    let channel: any Channel
    let replies: SMTPReplies
    var timeout: TimeInterval

    /// Sends `command` (nil: none, for the greeting) and answers the reply.
    func send(_ command: String?) async throws -> SMTPReply {
        let future = replies.next(on: channel.eventLoop, timeout: timeout)
        if let command { try await channel.writeAndFlush(ByteBuffer(string: command + "\r\n")).get() }
        return try await future.get()
    }

    /// Sends and requires one of `codes`; `shown` stands for the command in an error (a credential is never shown).
    @discardableResult
    func expect(_ shown: String?, _ command: String?, _ codes: Int...) async throws -> SMTPReply {
        let reply = try await send(command)
        guard codes.contains(reply.code) else {
            let said = shown ?? command.map { String($0.prefix(40)) } ?? "the greeting"
            throw SMTPFailure(code: reply.code, text: "\(reply.lines.joined(separator: " ")) (after \(said))")
        }
        return reply
    }
}

/// Reads replies off the wire ("250-…" lines until "250 …") and hands each to the next waiter, in order.
final class SMTPReplies: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    /// Longest reply kept: a server that says more is cut off.
    static let maxReplyBytes = 64 * 1024

    // Touched on the channel's event loop only.
    private var pending = ""
    private var lines: [String] = []
    private var ready: [SMTPReply] = []
    private var waiting: [EventLoopPromise<SMTPReply>] = []
    private var closed: (any Error)?

    /// The next reply, failing after `timeout` seconds.
    func next(on loop: any EventLoop, timeout: TimeInterval) -> EventLoopFuture<SMTPReply> {
        loop.flatSubmit {
            if !self.ready.isEmpty { return loop.makeSucceededFuture(self.ready.removeFirst()) }
            if let closed = self.closed { return loop.makeFailedFuture(closed) }
            let promise = loop.makePromise(of: SMTPReply.self)
            self.waiting.append(promise)
            let timer = loop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
                promise.fail(SMTPFailure(code: nil, text: "no reply in \(Int(timeout)) s"))
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
            return promise.futureResult
        }
    }

    /// Called on the loop just before TLS starts: refuses bytes that followed the `220` to STARTTLS in clear, and starts
    /// the encrypted conversation with nothing read before it.
    func startTLS(server: String) throws {
        let leftover = ready.count + lines.count + pending.utf8.count
        ready = []
        lines = []
        pending = ""
        guard leftover == 0 else {
            throw SMTPFailure(code: nil, text: "the SMTP server \(server) sent more after its 220 to STARTTLS, before TLS began "
                              + "(something on the way may be injecting replies); nothing was sent")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending += buffer.readString(length: buffer.readableBytes) ?? ""
        if pending.utf8.count + lines.reduce(0, { $0 + $1.utf8.count }) > Self.maxReplyBytes {
            fail(SMTPFailure(code: nil, text: "the SMTP server's reply is longer than \(Self.maxReplyBytes) bytes"))
            context.close(promise: nil)
            return
        }
        while let end = pending.range(of: "\r\n") ?? pending.range(of: "\n") {
            let line = String(pending[..<end.lowerBound])
            pending.removeSubrange(..<end.upperBound)
            let bytes = Array(line.utf8)
            guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)) else {
                fail(SMTPFailure(code: nil, text: "the SMTP server said something that is no reply: \(line.prefix(80))"))
                context.close(promise: nil)
                return
            }
            lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
            if bytes.count == 3 || bytes[3] != UInt8(ascii: "-") {
                let reply = SMTPReply(code: code, lines: lines)
                lines = []
                if waiting.isEmpty { ready.append(reply) } else { waiting.removeFirst().succeed(reply) }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(SMTPFailure(code: nil, text: "the SMTP server closed the connection"))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    private func fail(_ error: any Error) {
        closed = closed ?? error
        for promise in waiting { promise.fail(error) }
        waiting = []
    }
}
