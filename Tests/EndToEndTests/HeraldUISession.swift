import Foundation
import HeraldTestKit

/// Runs blocking work (tmux commands, waiting for a process) on a thread of its own, so tests never
/// block the few threads Swift concurrency has (on a 2-core machine two blocked tests would starve
/// everything, including the reaping of the tmux client processes), and with no signal blocked.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        Thread {
            // A thread started from the pool inherits its blocked signals, and so would tmux's server
            // (it would never reap its panes nor see SIGHUP/SIGTERM): start from an empty mask.
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            continuation.resume(with: Result { try work() })
        }.start()
    }
}

/// The real `herald` UI in tmux on a throwaway demo workspace (`--demo --data-dir TMP`), with the
/// simulated carrier sped up, its own XDG folders (no user config), and the log in TMP/state.
/// Every method that waits is async and waits off the concurrency pool.
final class HeraldUISession: @unchecked Sendable {
    private let dir: TempDir
    var folder: URL { dir.url }
    let dataDir: URL
    let session: TmuxSession
    let started = Date()
    let binary: URL
    let environment: [String: String]

    /// `config`: the text of config.toml, written before Herald starts (nil: none).
    init(width: Int = 100, height: Int = 30, timeScale: Int = 60, extraArguments: [String] = [], config: String? = nil) throws {
        binary = try HeraldBinary.url()
        dir = try TempDir("e2e-ui")
        let folder = dir.url
        if let config {
            let file = folder.appendingPathComponent("config/herald/config.toml")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(config.utf8).write(to: file)
        }
        dataDir = folder.appendingPathComponent("data")
        environment = [
            "HERALD_SANDBOX_TIME_SCALE": String(timeScale),
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_DATA_HOME": folder.appendingPathComponent("share").path,
            "SWIFT_BACKTRACE": "enable=no",
            "HERALD_SENDER_NAME": "Ana",
            // Sends leave at once unless a test of the undo window says otherwise.
            "HERALD_HOLD_SECONDS": "0",
            // As if in a terminal of its own: a copy is a plain OSC 52, which this tmux keeps as a paste buffer.
            "TMUX": "",
        ]
        // Through sh, so the exit status is printed on the screen once the terminal is given back.
        let script = "\"$0\" \"$@\"; status=$?; echo; echo herald-exit=$status"
        session = try TmuxSession(command: ["/bin/sh", "-c", script, binary.path, "--demo", "--data-dir", dataDir.path] + extraArguments,
                                  width: width, height: height, environment: environment)
    }

    deinit {
        session.kill()
    }

    /// Starts the UI (off the pool: tmux is started by a blocking command).
    static func start(width: Int = 100, height: Int = 30, timeScale: Int = 60, config: String? = nil) async throws -> HeraldUISession {
        try await offPool { try HeraldUISession(width: width, height: height, timeScale: timeScale, config: config) }
    }

    /// Waits for the first full frame (tab bar and status line drawn); returns seconds since launch.
    @discardableResult
    func waitForFirstFrame(timeout: TimeInterval = 60) async throws -> TimeInterval {
        try await waitUntil("the first frame", timeout: timeout) { $0.contains("1 Contacts") && $0.contains("embedded") }
        return Date().timeIntervalSince(started)
    }

    func keys(_ keys: String...) async throws {
        try await offPool { for k in keys { try self.session.sendKeys(k) } }
    }

    func type(_ text: String) async throws {
        try await offPool { try self.session.sendLiteral(text) }
    }

    func screen() async throws -> String {
        return try await offPool { try self.session.capture() }
    }

    func screenWithColours() async throws -> String {
        return try await offPool { try self.session.captureWithEscapes() }
    }

    func resize(width: Int, height: Int) async throws {
        try await offPool { try self.session.resize(width: width, height: height) }
    }

    func pasteBuffer() async throws -> String {
        return try await offPool { try self.session.pasteBuffer() }
    }

    func hasExited() async throws -> Bool {
        return try await offPool { try self.session.hasExited() }
    }

    func display(_ format: String) async throws -> String {
        return try await offPool { try self.session.display(format) }
    }

    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10) async throws -> String {
        try await waitUntil("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Polls the screen every 20 ms until `condition` holds; throws with the last screen after `timeout`.
    @discardableResult
    func waitUntil(_ what: String, timeout: TimeInterval = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while true {
            screen = try await self.screen()
            if condition(screen) { return screen }
            if Date() >= deadline { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw TmuxError(description: "timed out after \(timeout) s waiting for \(what); the screen was:\n\(screen)")
    }

    /// Seconds from sending `key` until `text` is on screen (polled as fast as tmux answers).
    func keypressToScreen(_ key: String, shows text: String, timeout: TimeInterval = 5) async throws -> TimeInterval {
        return try await offPool {
            let start = Date()
            try self.session.sendKeys(key)
            while Date().timeIntervalSince(start) < timeout {
                if try self.session.capture().contains(text) { return Date().timeIntervalSince(start) }
                usleep(1_000)
            }
            throw TmuxError(description: "\(text) did not show within \(timeout) s after \(key)")
        }
    }

    /// Runs `herald ARGS` as another process on the same data folder; returns its output.
    func runHerald(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let binary = self.binary, environment = self.environment, folder = self.folder
        return try await offPool { () throws -> (status: Int32, output: String) in
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (process.terminationStatus, (try? String(contentsOf: out, encoding: .utf8)) ?? "")
        }
    }

    /// The UI's log file.
    var log: String {
        (try? String(contentsOf: folder.appendingPathComponent("state/herald/herald.log"), encoding: .utf8)) ?? ""
    }
}
