import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// Hummingbird's HTTP/1 connection with Herald's guards around it: TLS first (its context read from `tls` for each new
/// connection, so a SIGHUP's new certificate serves the next connection without a restart), then the connection cap
/// and head deadline on raw bytes, then HTTP, then the body deadline; idle kept-alive connections close after
/// `idleTimeout`.
struct GuardedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let options: ServerOptions
    let connections: ConnectionCount
    let tls: ServerTLS?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let phase = RequestPhase()
        let options = options
        let http = HTTP1Channel(responder: responder, configuration: .init(
            additionalChannelHandlers: [RequestGuard(phase: phase, bodyTimeout: options.bodyTimeout)],
            idleTimeout: .milliseconds(Int64(options.idleTimeout * 1000))))
        return channel.eventLoop.makeCompletedFuture {
            if let context = tls?.context {
                try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
            }
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(count: connections, phase: phase, headerTimeout: options.headerTimeout, plain: tls == nil))
        }.flatMap {
            http.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder).handle(value: value, logger: logger)
    }
}

/// The server's certificate and key, read from their PEM files at start and again by `reload()` (on SIGHUP). A
/// reload that fails keeps serving the previous pair and says why.
final class ServerTLS: @unchecked Sendable {
    let files: ServerTLSFiles
    private let lock = NSLock()
    private var current: NIOSSLContext

    init(files: ServerTLSFiles) throws {
        self.files = files
        current = try Self.load(files)
    }

    var context: NIOSSLContext { lock.withLock { current } }

    func reload() throws {
        let fresh = try Self.load(files)
        lock.withLock { current = fresh }
    }

    static func load(_ files: ServerTLSFiles) throws -> NIOSSLContext {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMFile(files.certificatePath) } catch {
            throw ServerTLSError("cannot read the certificate \(files.certificatePath): \(error)")
        }
        guard !chain.isEmpty else { throw ServerTLSError("\(files.certificatePath) holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(file: files.keyPath, format: .pem) } catch {
            throw ServerTLSError("cannot read the private key \(files.keyPath): \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do { return try NIOSSLContext(configuration: configuration) } catch {
            throw ServerTLSError("the certificate \(files.certificatePath) and key \(files.keyPath) do not go together: \(error)")
        }
    }
}

/// Why the server's TLS files cannot be used.
public struct ServerTLSError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
