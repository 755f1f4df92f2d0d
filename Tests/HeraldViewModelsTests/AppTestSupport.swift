import Foundation
import HeraldCore
import HeraldServices
@testable import HeraldViewModels
import HeraldEmbedded

/// A real workspace (store + embedded engine) on a temporary folder with a manual clock.
final class ShellWorkspace {
    let folder: URL
    let workspace: Workspace
    let clock: ManualClock

    init(clock: ManualClock = ManualClock(Date())) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-shell-\(UUID().uuidString)")
        self.clock = clock
        workspace = try await Workspace.open(dataDirectory: folder, config: WorkspaceConfig(region: "HR"), clock: clock)
    }

    deinit {
        workspace.close()
        try? FileManager.default.removeItem(at: folder)
    }

    var book: ContactBook { ContactBook(contacts: workspace.contacts, ledger: workspace.ledger) }

    /// Stores a person with these numbers (parsed for Croatia).
    @discardableResult
    func add(_ first: String, _ last: String, _ numbers: String...) throws -> Person {
        let phones = numbers.map { LabeledPhone(label: "mobile", number: workspace.parser.parse($0)) }
        return try workspace.contacts.insert(Person(firstName: first, lastName: last, phones: phones))
    }
}

/// Effect completions handed back as the app loop would, waiting for each to arrive (no sleeps).
final class ShellEffects: @unchecked Sendable {
    private let stream: AsyncStream<EffectCompletion>
    let queue: EffectQueue
    /// Completions run on this UI side (as the app loop runs them), when given.
    let ui: UISide?

    init(ui: UISide? = nil) {
        let (stream, continuation) = AsyncStream<EffectCompletion>.makeStream()
        self.stream = stream
        self.ui = ui
        queue = EffectQueue { continuation.yield($0) }
    }

    func settle() async {
        var iterator = stream.makeAsyncIterator()
        while queue.inFlight > 0 {
            guard let completion = await iterator.next() else { return }
            if let ui { ui { _ = queue.complete(completion) } } else { queue.complete(completion) }
        }
    }
}

/// Runs view-model code the way the app loop does: inside a `UIThreadGuard`, so any storage read or
/// write it makes synchronously (instead of through an effect) is recorded and fails the test.
final class UISide: @unchecked Sendable {
    let guardian = UIThreadGuard()

    func callAsFunction<T>(_ body: () throws -> T) rethrows -> T { try guardian.run(body) }

    /// Storage accesses made on the UI side so far.
    var violations: [String] { guardian.violations }

    /// The rows of `range` once read: asks (as a render does), lets the reads finish, asks again.
    func rows(_ vm: ContactsViewModel, _ range: Range<Int>, _ effects: ShellEffects) async -> [ContactRow] {
        _ = self { vm.rows(in: range) }
        await effects.settle()
        return self { vm.rows(in: range) }.compactMap { $0 }
    }
}
