import Foundation
import HeraldEngine
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// `herald serve`: the engine over HTTP for many terminals (Hummingbird), with its carrier worker.
public struct HeraldServer: Sendable {
    public let engine: PlatformEngine
    public let options: ServerOptions
    /// The connections open, in all and per client.
    let connections: ConnectionCount

    public init(engine: PlatformEngine, options: ServerOptions) {
        self.engine = engine
        self.options = options
        connections = ConnectionCount(limit: options.maxConnections, perClient: options.connectionsPerAddress)
    }

    /// Serves until SIGTERM or SIGINT (with `handleSignals`, which also makes SIGHUP read the TLS files again) or until
    /// the task is cancelled, then lets requests in flight finish (event streams end) and returns. `onListening` gets
    /// the address once connections are accepted. Throws `ServerTLSError` when the TLS files cannot be used.
    /// `log` is where the server and its shutdown log (the log file's, unless a test listens).
    public func run(handleSignals: Bool = true, log: Logger = Logger(label: "herald.server"),
                    onListening: @escaping @Sendable (String) -> Void) async throws {
        let metrics = ServerMetrics()
        let revocations = KeyRevocations(engine: engine)
        let clicks = ClickCounter(engine: engine)
        let handlers = ServerHandlers(engine: engine, options: options, metrics: metrics, revocations: revocations, clicks: clicks)
        let router = ServerRouter.build(handlers: handlers, engine: engine, options: options, metrics: metrics)
        let tls = try options.tls.map(ServerTLS.init(files:))
        let connections = connections
        let host = options.host, options = options, scheme = tls == nil ? "http" : "https"
        var app = Application(
            router: router,
            server: HTTPServerBuilder { respond in
                GuardedHTTP1Channel(responder: respond, options: options, connections: connections, tls: tls)
            },
            configuration: ApplicationConfiguration(address: .hostname(host, port: options.port), serverName: "herald"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("\(scheme)://\(shown):\(port)")
            },
            logger: log
        )
        app.addServices(CarrierWorker(engine: engine, options: options, metrics: metrics), ReplicaEvents(engine: engine),
                        revocations, clicks)
        var reloads: (any DispatchSourceSignal)?
        if handleSignals, let tls {
            signal(SIGHUP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGHUP)
            source.setEventHandler {
                do {
                    try tls.reload()
                    log.notice("TLS certificate read again", metadata: ["certificate": "\(tls.files.certificatePath)"])
                } catch {
                    log.error("TLS certificate not reloaded; the previous one still serves", metadata: ["cause": "\(error)"])
                }
            }
            source.resume()
            reloads = source
        }
        defer { reloads?.cancel() }
        try await ServerShutdown.run(app, handleSignals: handleSignals, grace: options.shutdownGrace, logger: log)
    }
}
