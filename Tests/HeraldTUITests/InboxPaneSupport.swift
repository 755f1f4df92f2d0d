import Foundation
import HeraldServices
import HeraldTUI
import HeraldViewModels
import HeraldEmbedded

/// A real workspace on a temporary folder for the pane tests, removed at the end.
final class PaneTestWorkspace {
    let folder: URL
    let workspace: Workspace

    init(config: WorkspaceConfig = WorkspaceConfig(region: "HR")) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-pane-\(UUID().uuidString)")
        workspace = try await Workspace.open(dataDirectory: folder, config: config)
    }

    deinit {
        workspace.close()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Effect completions handed back by the test as the app loop would, waiting for each to arrive.
final class PaneEffects: @unchecked Sendable {
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

extension Canvas {
    /// Rows of the canvas as text.
    var rows: [String] { snapshot().components(separatedBy: "\n") }

    /// Where `text` starts on the canvas (column counted in cells), or nil.
    func find(_ text: String) -> (x: Int, y: Int)? {
        for y in 0..<height {
            var line: [Character] = []
            var columns: [Int] = []
            for x in 0..<width {
                guard let cell = cell(x: x, y: y), !cell.isContinuation else { continue }
                line.append(cell.character); columns.append(x)
            }
            let target = Array(text)
            guard target.count <= line.count else { continue }
            for start in 0...(line.count - target.count) where Array(line[start..<(start + target.count)]) == target {
                return (columns[start], y)
            }
        }
        return nil
    }
}

/// A theme without colours: the panes' drawing does not depend on it.
let plainTheme = Theme(name: "plain", roles: [:])
