import HeraldEngine
import Logging
import ServiceLifecycle

/// Wakes this server's event-stream subscribers and carrier worker when another replica commits events
/// (PostgreSQL's LISTEN/NOTIFY); subscribers then read by id what they have not seen. On SQLite it returns at once,
/// and subscribers look at the events table every `eventPoll` seconds for other processes' commits.
struct ReplicaEvents: Service {
    let engine: PlatformEngine

    func run() async throws {
        let bell = engine.bell
        await cancelWhenGracefulShutdown {
            try? await engine.store.watchEvents { bell.ring() }
        }
        // A service that ends stops the server: wait for the server's own end.
        try? await gracefulShutdown()
    }
}
