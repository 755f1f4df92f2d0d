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
            do {
                try await engine.store.watchEvents { bell.ring() }
            } catch is CancellationError {
                return
            } catch {
                // Subscribers still see other replicas' events, on the events table's timer instead of at once.
                Logger(label: "herald.server").error("cannot follow other replicas' commits; event streams fall back to polling",
                                                     metadata: ["cause": "\(PlatformEngine.failureText(error))"])
            }
        }
        // A service that ends stops the server: wait for the server's own end.
        try? await gracefulShutdown()
    }
}
