import Foundation
import HeraldEngine
import Hummingbird
import Logging
import ServiceLifecycle

/// `herald serve`: the engine over HTTP for many terminals (Hummingbird), with its carrier worker.
public struct HeraldServer: Sendable {
    public let engine: PlatformEngine
    public let options: ServerOptions

    public init(engine: PlatformEngine, options: ServerOptions) {
        self.engine = engine
        self.options = options
    }

    /// Serves until SIGTERM or SIGINT (with `handleSignals`) or until the task is cancelled, then lets requests
    /// in flight finish (event streams end) and returns. `onListening` gets the address once connections are accepted.
    public func run(handleSignals: Bool = true, onListening: @escaping @Sendable (String) -> Void) async throws {
        let metrics = ServerMetrics()
        let responder = ServerResponder(engine: engine, options: options, metrics: metrics)
        let host = options.host
        var app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in await responder.respond(request) },
            configuration: ApplicationConfiguration(address: .hostname(host, port: options.port), serverName: "herald"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                onListening("http://\(shown):\(port)")
            },
            logger: Logger(label: "herald.server")
        )
        app.addServices(CarrierWorker(engine: engine, options: options, metrics: metrics), ReplicaEvents(engine: engine))
        if handleSignals { try await app.runService() } else { try await app.run() }
    }
}
