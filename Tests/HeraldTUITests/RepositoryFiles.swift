import Foundation

/// Files of the repository, found from this source file's path.
enum RepositoryFiles {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func read(_ path: String) -> String? { try? String(contentsOf: url(path), encoding: .utf8) }

    /// True when generated files should be rewritten instead of compared.
    static var updating: Bool { ProcessInfo.processInfo.environment["HERALD_UPDATE_GENERATED"] == "1" }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
