import Foundation
import HeraldTestKit

/// Errors from driving tmux.
struct TmuxError: Error, CustomStringConvertible {
    let description: String
}

/// A program running in a private tmux server (`tmux -L herald-e2e-<random>`), driven like a user
/// would: keys in, screen text out. The server is killed when the session goes away.
final class TmuxSession {
    let socket: String
    let target = "herald:0.0"
    private let folder: TempDir
    private var configDirectory: URL { folder.url }
    private var killed = false

    /// The tmux executable, or nil when tmux is not installed.
    static let tmuxPath: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { tmuxPath != nil }

    /// Starts `command` in a detached `width`×`height` session. `environment` is added to the
    /// program's environment (TERM is tmux-256color unless given).
    init(command: [String], width: Int = 100, height: Int = 30, environment: [String: String] = [:]) throws {
        guard Self.tmuxPath != nil else { throw TmuxError(description: "tmux is not installed") }
        socket = "herald-e2e-\(UUID().uuidString.prefix(8).lowercased())"
        folder = try TempDir("tmux")
        let config = folder.file("tmux.conf")
        try """
        set -g remain-on-exit on
        set -g default-terminal "tmux-256color"
        set -g status off
        set -g escape-time 10
        set -g set-clipboard on
        """.write(to: config, atomically: true, encoding: .utf8)
        var env = ["TERM": "tmux-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        let envArgs = ["env"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        try run(["-f", config.path, "new-session", "-d", "-s", "herald", "-x", String(width), "-y", String(height), "--"]
                + envArgs + command)
    }

    deinit { kill() }

    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        guard let tmux = Self.tmuxPath else { throw TmuxError(description: "tmux is not installed") }
        // Output goes to files, and the child is reaped with waitpid: the tmux server forks from the
        // first client and would keep a pipe (and Foundation's Process) waiting forever.
        let outputURL = configDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        let errorURL = configDirectory.appendingPathComponent("err-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputURL); try? FileManager.default.removeItem(at: errorURL) }
        let status = try Self.spawnAndWait([tmux, "-L", socket] + arguments, stdout: outputURL.path, stderr: errorURL.path)
        guard status == 0 else {
            let errorText = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
            throw TmuxError(description: "tmux \(arguments.joined(separator: " ")) failed (\(status)): \(errorText)")
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// Runs a program with stdin from /dev/null and stdout/stderr into files; returns its exit status.
    private static func spawnAndWait(_ argv: [String], stdout: String, stderr: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var cArgs = argv.map { strdup($0) }
        defer { cArgs.forEach { free($0) } }
        cArgs.append(nil)
        // The tmux server forks from this client and keeps its signal mask and dispositions: start it
        // with nothing blocked and every handler at its default, whatever thread the test runs on,
        // or it never reaps its panes nor hears SIGHUP/SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        guard spawned == 0 else { throw TmuxError(description: "cannot start \(argv[0]): error \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw TmuxError(description: "waitpid failed: errno \(errno)") }
        }
        // WIFEXITED / WEXITSTATUS are macros Swift cannot see.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Sends tmux key names (e.g. "j", "Enter", "Escape", "C-d", "BTab", "F1").
    func sendKeys(_ keys: String...) throws { try run(["send-keys", "-t", target] + keys) }

    /// Types `text` literally.
    func sendLiteral(_ text: String) throws { try run(["send-keys", "-t", target, "-l", text]) }

    /// Pastes `text` as a person's paste reaches the program: tmux's `paste-buffer -p` wraps it in ESC[200~ … ESC[201~
    /// only when the program turned bracketed paste on, and sends its line breaks as CR, as a terminal does.
    func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "e2e-paste", "--", text])
        try run(["paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", target])
    }

    /// The screen as text (trailing spaces trimmed by tmux).
    func capture() throws -> String { try run(["capture-pane", "-p", "-t", target]) }

    /// The newest paste buffer (what an OSC 52 copy put there, with `set-clipboard on`); "" when none.
    func pasteBuffer() throws -> String { (try? run(["show-buffer"])) ?? "" }

    /// The screen with colour and attribute escape sequences.
    func captureWithEscapes() throws -> String { try run(["capture-pane", "-p", "-e", "-t", target]) }

    /// Appends every byte the program writes from now on to `file`, as it wrote them (escape sequences tmux does not
    /// keep in its cells, such as OSC 8 hyperlinks, included).
    func recordOutput(to file: URL) throws { try run(["pipe-pane", "-o", "-t", target, "cat >> '\(file.path)'"]) }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", "herald", "-x", String(width), "-y", String(height)])
    }

    /// A tmux format evaluated for the pane, e.g. "#{window_width}x#{window_height}" or "#{pane_title}".
    func display(_ format: String) throws -> String {
        try run(["display", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// True once the program in the pane has exited.
    func hasExited() throws -> Bool { try display("#{pane_dead}") == "1" }

    /// Polls the screen every 50 ms until `condition` holds; returns that screen, or throws with the
    /// last screen seen after `timeout` seconds.
    @discardableResult
    func waitUntil(timeout: TimeInterval = 10, _ what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = ""
        while true {
            screen = try capture()
            if condition(screen) { return screen }
            if Date() >= deadline { break }
            usleep(50_000)
        }
        throw TmuxError(description: "timed out after \(timeout) s waiting for \(what); the screen was:\n\(screen)")
    }

    /// Waits until `text` is on the screen.
    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 10) throws -> String {
        try waitUntil(timeout: timeout, "\"\(text)\"") { $0.contains(text) }
    }

    /// Stops the tmux server and everything in it.
    func kill() {
        guard !killed else { return }
        killed = true
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: configDirectory)
    }
}
