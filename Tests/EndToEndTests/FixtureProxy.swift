import Foundation

/// One of the proxies of Fixtures/ (python3) in front of a `herald serve` on loopback; killed when released.
final class FixtureProxy {
    /// Where terminals reach the proxy.
    let url: String
    private let process = Process()

    /// `fixture`: the script's file name in Fixtures/; `upstream`: the server's address.
    init(_ fixture: String, upstream: String) throws {
        let port = URL(string: upstream)?.port ?? 0
        // Debian's python3 itself (make test installs it), not a version manager's shim that would outlive the kill.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(fixture)").path, "127.0.0.1", String(port)]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let announced = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard let url = announced.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }),
              url.hasPrefix("http://") else {
            kill(process.processIdentifier, SIGKILL)
            throw CLIError("the proxy \(fixture) did not start: \(announced)")
        }
        self.url = url
    }

    deinit {
        // SIGKILL: a child of the test process starts with SIGTERM blocked, so terminate() would not end it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
