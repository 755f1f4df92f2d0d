import Foundation
import HeraldEngine
import HeraldLocks
import Logging
import ServiceLifecycle

/// The server's carrier work: hands the outbox to the carrier and stores delivery reports as they fall due,
/// so statuses move (and their events go out) without anyone reading. Old events are pruned once an hour.
struct CarrierWorker: Service {
    let engine: PlatformEngine
    let options: ServerOptions
    let log = Logger(label: "herald.carrier")

    func run() async throws {
        let wake = engine.bell.listen()
        await cancelWhenGracefulShutdown {
            var lastPrune = Date.distantPast
            while !Task.isCancelled {
                var sleep = options.carrierInterval
                do {
                    let pass = try await engine.runCarrierPass()
                    if let due = pass.nextDueAt { sleep = min(sleep, max(0.01, due.timeIntervalSinceNow)) }
                    if Date().timeIntervalSince(lastPrune) > 3600 {
                        try await engine.pruneEvents(olderThan: options.eventRetention)
                        lastPrune = Date()
                    }
                } catch is CancellationError {
                    break
                } catch {
                    log.error("carrier pass failed", metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                    sleep = 1
                }
                // A commit with events (a send) wakes the worker for its outbox at once.
                await wake.wait(upTo: sleep)
            }
        }
    }
}
