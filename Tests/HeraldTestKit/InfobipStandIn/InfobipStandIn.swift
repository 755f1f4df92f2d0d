import Foundation
import Hummingbird
import Logging

/// A stand-in for Infobip's SMS API v3 and Mobile Messaging inbox on a loopback port, answering with
/// payloads shaped like the public documentation's examples. A test fixture: Herald never ships it.
public struct InfobipStandIn: Sendable {
    public let state: StandInState

    public init(state: StandInState) { self.state = state }

    /// Serves on `127.0.0.1:port` (0: a free one) until the task is cancelled; `onListening` gets the base URL.
    public func run(port: Int = 0, onListening: @escaping @Sendable (String) -> Void) async throws {
        let routes = StandInRoutes(state: state)
        var logger = Logger(label: "infobip.stand-in")
        logger.logLevel = .critical  // cancelling the server at the end of a test is not an error
        let app = Application(
            responder: CallbackResponder<BasicRequestContext> { request, _ in await routes.respond(request) },
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port), serverName: "infobip-stand-in"),
            onServerRunning: { channel in onListening("http://127.0.0.1:\(channel.localAddress?.port ?? 0)") },
            logger: logger
        )
        // While it serves, held bulks leave at their time by themselves; once it stops, they stay held.
        await state.serverStarted()
        do { try await app.run() } catch {
            await state.serverStopped()
            throw error
        }
        await state.serverStopped()
    }

    /// Starts serving in a task; answers the base URL and the task (cancel it to stop).
    public static func start(state: StandInState) async throws -> (url: URL, task: Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let server = InfobipStandIn(state: state)
        let task = Task { try await server.run { continuation.yield($0) } }
        for await text in stream { if let url = URL(string: text) { return (url, task) } }
        throw CancellationError()
    }
}
