import Foundation
import HeraldCore
import HeraldServices
@testable import HeraldViewModels
import HeraldEmbedded

/// A real workspace on a temporary folder, removed at the end.
final class PaneWorkspace {
    let folder: URL
    let workspace: Workspace

    init(config: WorkspaceConfig = WorkspaceConfig(region: "HR")) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-vm-\(UUID().uuidString)")
        workspace = try await Workspace.open(dataDirectory: folder, config: config)
    }

    deinit {
        workspace.close()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Effects whose completions the test hands back, the way the app loop does, without sleeping:
/// `settle` waits for each completion to arrive and runs it, until nothing is in flight.
final class EffectPump: @unchecked Sendable {
    private let stream: AsyncStream<EffectCompletion>
    private let continuation: AsyncStream<EffectCompletion>.Continuation
    let queue: EffectQueue

    init() {
        let (stream, continuation) = AsyncStream<EffectCompletion>.makeStream()
        self.stream = stream
        self.continuation = continuation
        queue = EffectQueue { continuation.yield($0) }
    }

    /// Runs completions as they arrive until no effect is in flight (completions may start new ones).
    func settle() async {
        var iterator = stream.makeAsyncIterator()
        while queue.inFlight > 0 {
            guard let completion = await iterator.next() else { return }
            queue.complete(completion)
        }
    }
}

/// Toasts posted by a view-model.
final class ToastLog {
    var entries: [(level: ToastLevel, text: String)] = []
    var texts: [String] { entries.map(\.text) }
    func sink() -> (ToastLevel, String) -> Void { { [weak self] in self?.entries.append(($0, $1)) } }
}
