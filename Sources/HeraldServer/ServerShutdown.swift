import Foundation
import Logging
import ServiceLifecycle

/// How a server ends. SIGINT or SIGTERM (or cancelling the task that runs it) starts a graceful shutdown: no new
/// connections, requests in flight finish, event streams end, the background services stop. That shutdown is bounded:
/// after `ServerOptions.shutdownGrace` seconds it turns into cancellation, and when the process owns the signals a
/// second SIGINT or SIGTERM, or `shutdownGrace` + `ServerShutdown.hardStopMargin` seconds with the shutdown still
/// going, ends the process at once. Whatever the database or a peer is doing, a signal ends the server.
enum ServerShutdown {
    /// Seconds past the grace after which a shutdown that has not finished ends the process.
    static let hardStopMargin: TimeInterval = 3

    static func run(_ app: some Service, handleSignals: Bool, grace: TimeInterval, logger: Logger) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: app)], gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(grace * 1000))
        let group = ServiceGroup(configuration: configuration)
        let hardStop = handleSignals ? HardStop(after: grace + hardStopMargin, logger: logger) : nil
        defer { hardStop?.cancel() }
        // A cancelled task shuts down as a signal would. The group runs in a task of its own, which the caller's
        // cancellation does not reach: cancelled, its connections would be cut ("Waiting on child channel:
        // CancellationError()") instead of closed.
        let running = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await running.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }
}

/// Ends the process when a shutdown begun by a signal does not finish in time, or at a second signal.
/// It watches the signals beside ServiceLifecycle (both are told of each one) on a queue of its own, so a shutdown
/// that waits for ever on the cooperative pool cannot hold it up.
final class HardStop: @unchecked Sendable {
    private let queue = DispatchQueue(label: "herald.server.hard-stop")
    private var sources: [any DispatchSourceSignal] = []
    private var signals = 0
    private var deadline: DispatchWorkItem?

    init(after seconds: TimeInterval, logger: Logger) {
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in self.caught(number, seconds: seconds, logger: logger) }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs on `queue`.
    private func caught(_ number: Int32, seconds: TimeInterval, logger: Logger) {
        signals += 1
        if signals > 1 { Self.stop(logger, "a second \(Self.name(number)) during the shutdown: stopping now", status: 128 + number) }
        let item = DispatchWorkItem {
            Self.stop(logger, "the shutdown did not finish within \(Int(seconds)) s: stopping now", status: 1)
        }
        deadline = item
        queue.asyncAfter(deadline: .now() + seconds, execute: item)
    }

    func cancel() {
        queue.sync {
            deadline?.cancel()
            for source in sources { source.cancel() }
            sources = []
        }
    }

    private static func stop(_ logger: Logger, _ why: String, status: Int32) -> Never {
        logger.critical("\(why)")
        FileHandle.standardError.write(Data("herald serve: \(why)\n".utf8))
        _exit(status)
    }

    private static func name(_ number: Int32) -> String { number == SIGINT ? "SIGINT" : "SIGTERM" }
}
