import Foundation
import HeraldCore
import HeraldServices
@testable import HeraldViewModels

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

    init() {
        let (stream, continuation) = AsyncStream<EffectCompletion>.makeStream()
        self.stream = stream
        queue = EffectQueue { continuation.yield($0) }
    }

    func settle() async {
        var iterator = stream.makeAsyncIterator()
        while queue.inFlight > 0 {
            guard let completion = await iterator.next() else { return }
            queue.complete(completion)
        }
    }
}
