import Foundation

/// Finds the built `herald` executable: `HERALD_BIN`, else next to the test bundle in the build
/// directory (what `swift build --show-bin-path` prints).
enum HeraldBinary {
    static func url() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["HERALD_BIN"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        for dir in candidates {
            // The test runner may live inside an .xctest bundle folder; look upward a few levels.
            var current = dir
            for _ in 0..<4 {
                let herald = current.appendingPathComponent("herald")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: herald.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: herald.path) {
                    return herald
                }
                current = current.deletingLastPathComponent()
            }
        }
        throw TmuxError(description: "the herald binary was not found next to the tests (looked in \(candidates.map(\.path))); run `swift build` first or set HERALD_BIN")
    }
}
