import HeraldServices
import HeraldCore
import HeraldViewModels

/// Effects whose completions the test hands back as the app loop does, without sleeping: `settle` waits for each
/// completion to arrive and runs it, until nothing is in flight (a completion may start more). The one effect pump
/// of the view-model and pane tests. On the main actor, as the view-models are (the kit has no default isolation).
@MainActor
public final class EffectPump: @unchecked Sendable {
    private let stream: AsyncStream<EffectCompletion>
    public let queue: EffectQueue
    /// Completions run on this UI side (inside its thread guard, as the app loop runs them), when given.
    public let ui: UISide?

    public init(ui: UISide? = nil) {
        let (stream, continuation) = AsyncStream<EffectCompletion>.makeStream()
        self.stream = stream
        self.ui = ui
        queue = EffectQueue { continuation.yield($0) }
    }

    /// Runs completions as they arrive until no effect is in flight.
    public func settle() async {
        var iterator = stream.makeAsyncIterator()
        while queue.inFlight > 0 {
            guard let completion = await iterator.next() else { return }
            if let ui { ui { _ = queue.complete(completion) } } else { queue.complete(completion) }
        }
    }
}

/// Runs view-model code the way the app loop does: inside a `UIThreadGuard`, so any storage read or write it makes
/// synchronously (instead of through an effect) is recorded and fails the test.
@MainActor
public final class UISide: @unchecked Sendable {
    public let guardian = UIThreadGuard()

    public init() {}

    public func callAsFunction<T>(_ body: () throws -> T) rethrows -> T { try guardian.run(body) }

    /// Storage accesses made on the UI side so far.
    public var violations: [String] { guardian.violations }

    /// The rows of `range` once read: shows them (as a layout pass does), lets the reads finish, reads them.
    public func rows(_ vm: ContactsViewModel, _ range: Range<Int>, _ effects: EffectPump) async -> [ContactRow] {
        self { vm.show(range) }
        await effects.settle()
        return self { vm.rows(in: range) }.compactMap { $0 }
    }
}
