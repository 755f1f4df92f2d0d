import Foundation
import Testing

/// Files of the repository, found from this source file's path.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func read(_ path: String) -> String? { try? String(contentsOf: url(path), encoding: .utf8) }

    /// True when generated files should be rewritten instead of compared.
    static var updating: Bool { ProcessInfo.processInfo.environment["HERALD_UPDATE_GENERATED"] == "1" }

    /// Holds the repository's generated file at `path` to `generated`. With `HERALD_UPDATE_GENERATED=1` a stale file is
    /// rewritten, and the run still fails, saying so: a run that changed the repository never passes for a check.
    static func expectGenerated(_ path: String, is generated: String, rerun: String,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let current = read(path)
        guard current != generated else { return }
        if updating {
            try FileManager.default.createDirectory(at: url(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try generated.write(to: url(path), atomically: true, encoding: .utf8)
            Issue.record("\(path) was out of date and has been rewritten: review it, commit it, and run again", sourceLocation: sourceLocation)
        } else {
            Issue.record("\(path) is out of date: run HERALD_UPDATE_GENERATED=1 \(rerun)", sourceLocation: sourceLocation)
        }
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
