import Foundation
import HeraldEngine
import HeraldLocks
import Logging
import ServiceLifecycle

/// The server's carrier work: hands the outbox to the carrier and stores delivery reports as they fall due,
/// so statuses move (and their events go out) without anyone reading. Old events are pruned once an hour.
/// Among replicas on one database only the holder of the store's carrier lease does it; the others ask again
/// every `leaseRetry` seconds, so one of them takes over within about that when the holder dies.
struct CarrierWorker: Service {
    let engine: PlatformEngine
    let options: ServerOptions
    let metrics: ServerMetrics
    let log = Logger(label: "herald.carrier")

    func run() async throws {
        let wake = engine.bell.listen()
        await cancelWhenGracefulShutdown {
            var lastPrune = Date.distantPast
            var leading = false
            while !Task.isCancelled {
                var sleep = options.carrierInterval
                let holds = await engine.store.holdsCarrierLease()
                if holds != leading {
                    leading = holds
                    metrics.setCarrierLeader(holds)
                    if holds { log.notice("this replica runs the carrier work") }
                }
                guard holds else {
                    // Not woken by commits: a replica that does not lead asks again on its own schedule only.
                    try? await Task.sleep(nanoseconds: UInt64(options.leaseRetry * 1_000_000_000))
                    continue
                }
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
