import Foundation
import Testing

/// Files of the repository, found from this source file's path.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func read(_ path: String) -> String? { try? String(contentsOf: url(path), encoding: .utf8) }

    /// Holds the repository's generated file at `path` to `generated` (what `make docs`, scripts/generate.sh, writes
    /// there). Only compares: a test never rewrites the repository.
    static func expectGenerated(_ path: String, is generated: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard read(path) != generated else { return }
        Issue.record("\(path) is out of date: run make docs (scripts/generate.sh) and commit it", sourceLocation: sourceLocation)
    }
}
