import Foundation

/// A fresh folder under the system's temporary directory (`herald-<label>-<UUID>`), removed when the value is
/// released. The one temporary folder of the tests: every harness and every test that needs a folder makes it here.
public final class TempDir: Sendable {
    public let url: URL

    /// Makes the folder; `label` names it for whoever finds one left behind.
    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file or folder inside, as a path.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// A file or folder inside.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// A subfolder, made now (with its parents).
    @discardableResult
    public func folder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes a shell script and makes it executable.
    @discardableResult
    public func script(_ name: String, _ body: String, executable: Bool = true) throws -> String {
        // Written through a close-on-exec descriptor: tests run in parallel and spawn programs, and a
        // child that inherited a write descriptor would make exec of this script fail (ETXTBSY).
        let p = path(name)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let bytes = Array(("#!/bin/sh\n" + body + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return p
    }
}
