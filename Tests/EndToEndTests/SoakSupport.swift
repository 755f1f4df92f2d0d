import Foundation
import HeraldTestKit
import Testing

// Helpers of the concurrency soak tests (ConcurrencySoakTests.swift): herald processes started without
// waiting (to run several at once and SIGKILL one), a command repeated in a loop on a thread, queries of
// the real SQLite files through the `sqlite3` command-line shell, seeded randomness and summary lines.

// MARK: - Reproducible randomness and scale

enum Soak {
    /// `HERALD_SOAK_SCALE` (default 1): multiplies every repetition count, for a longer soak run by hand.
    static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["HERALD_SOAK_SCALE"], let value = Double(text),
              value.isFinite, value > 0 else { return 1 }
        return value
    }()

    /// `base` repetitions at scale 1, scaled by `HERALD_SOAK_SCALE` (at least 1).
    static func runs(_ base: Int) -> Int { max(1, Int((Double(base) * scale).rounded(.up))) }

    /// The seed of a test: `HERALD_SOAK_SEED` when set (decimal or 0x…), else a fixed one derived from its name.
    static func seed(_ name: String) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["HERALD_SOAK_SEED"]?.trimmingCharacters(in: .whitespaces),
           !text.isEmpty {
            if text.lowercased().hasPrefix("0x"), let v = UInt64(text.dropFirst(2), radix: 16) { return v }
            if let v = UInt64(text) { return v }
        }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// Prints `soak NAME: k=v k=v …` on stdout at once (the figures quoted from a soak run).
    static func report(_ name: String, _ figures: KeyValuePairs<String, Any>) {
        let line = "soak \(name): " + figures.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// A cheap command that opens the workspace (creating it in an empty folder) and so reconciles the
    /// invitations an interrupted earlier run left queued. (`herald status` needs a bulk id.)
    static let openCommand = ["templates", "list", "--json"]

    /// A simulated carrier so slow that no invitation leaves MessageWaiting while a test runs. With a fast
    /// one, an answer replayed a few milliseconds after the first send already says DeliveryImpossible for
    /// about 10% of the numbers, and the resend policy then (rightly) sends those again: that second
    /// accepted row would be counted as "invited twice" although no bug sent it.
    static let slowTimeScale = "0.01"

    /// Raw statuses of the client ledger (`DeliveryStatus.rawValue` in HeraldCore).
    static let sendFailed = "SendFailed"
    static let queued = "Queued"

    /// Markers of a concurrency failure on stderr.
    static let lockedOrRacing = ["database is locked", "already exists", "SQLITE_BUSY"]
}

/// `text` as an SQL string literal.
func sqlQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

// MARK: - sqlite3

/// Queries through the Debian `sqlite3` shell (`apt-get install sqlite3`), read-only, so that the tests
/// look at the files exactly as the processes left them.
enum SQLiteShell {
    static var path: String {
        if let p = ProcessInfo.processInfo.environment["HERALD_SQLITE3"], !p.isEmpty { return p }
        return "/usr/bin/sqlite3"
    }

    /// The rows of `sql` on `file`, each as its column values (NULL as ""), in order.
    static func query(_ file: URL, _ sql: String, timeout: TimeInterval = 60) throws -> [[String]] {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CLIError("\(path) is missing: install it with `apt-get install -y sqlite3` (or set HERALD_SQLITE3)")
        }
        guard FileManager.default.fileExists(atPath: file.path) else { throw CLIError("no database at \(file.path)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // -ascii: columns end with 0x1F and rows with 0x1E, so text holding | or newlines survives.
        process.arguments = ["-readonly", "-batch", "-bail", "-ascii", "-cmd", ".timeout 10000", file.path, sql]
        let folder = try TempDir("sqlite")
        let scratch = folder.file("stderr")
        _ = FileManager.default.createFile(atPath: scratch.path, contents: nil)
        let errHandle = try FileHandle(forWritingTo: scratch)
        let outPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let child = try ChildExit(running: process)
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        guard let status = child.wait(timeout: timeout) else {
            process.terminate()
            throw CLIError("sqlite3 \(file.lastPathComponent) \"\(sql)\" did not finish in \(Int(timeout)) s")
        }
        try errHandle.close()
        let err = (try? String(contentsOf: scratch, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw CLIError("sqlite3 \(file.lastPathComponent) \"\(sql)\" failed (\(status)): \(err)")
        }
        var records = String(decoding: out, as: UTF8.self).split(separator: "\u{1E}", omittingEmptySubsequences: false)
        if records.last?.isEmpty == true { records.removeLast() }
        return records.map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The single integer `sql` answers (e.g. a COUNT).
    static func integer(_ file: URL, _ sql: String) throws -> Int {
        let rows = try query(file, sql)
        guard let text = rows.first?.first, let value = Int(text) else {
            throw CLIError("sqlite3 \(file.lastPathComponent) \"\(sql)\" answered \(rows), not an integer")
        }
        return value
    }
}

// MARK: - Processes started without waiting

/// `kill(2)` (a free function, so that `LaunchedHerald.kill` does not hide it); true when the signal was sent.
func sendSignal(_ pid: pid_t, _ signal: Int32) -> Bool { kill(pid, signal) == 0 }

/// A `herald` run started without waiting for it: several run at once, and one can be SIGKILLed at any
/// moment. stdout and stderr go to files (no pipe to fill up).
final class LaunchedHerald: @unchecked Sendable {
    let arguments: [String]
    let process = Process()
    let startedAt: Date
    private let outURL: URL
    private let errURL: URL
    private let outHandle: FileHandle
    private let errHandle: FileHandle
    private let condition = NSCondition()
    private var finished = false
    private var endedAt: Date?
    private var result: PlatformCLI.Run?

    init(binary: URL, arguments: [String], environment: [String: String], scratch: URL) throws {
        self.arguments = arguments
        let tag = UUID().uuidString
        outURL = scratch.appendingPathComponent("launched-\(tag).out")
        errURL = scratch.appendingPathComponent("launched-\(tag).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        outHandle = try FileHandle(forWritingTo: outURL)
        errHandle = try FileHandle(forWritingTo: errURL)
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        startedAt = Date()
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            self.condition.lock()
            self.finished = true
            self.endedAt = Date()
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
    }

    deinit {
        if process.isRunning { _ = sendSignal(process.processIdentifier, SIGKILL) }
        try? outHandle.close()
        try? errHandle.close()
        try? FileManager.default.removeItem(at: outURL)
        try? FileManager.default.removeItem(at: errURL)
    }

    var pid: pid_t { process.processIdentifier }

    var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !finished
    }

    /// Sends `signal` (SIGKILL by default) unless the process has already ended; true when it was sent.
    /// Whether it hit a live process shows after `wait` in `wasKilled`.
    @discardableResult
    func kill(_ signal: Int32 = SIGKILL) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !finished else { return false }
        return sendSignal(process.processIdentifier, signal)
    }

    /// Waits (at most `timeout` seconds; then SIGKILLs it and throws) and answers what it printed.
    @discardableResult
    func wait(timeout: TimeInterval = 120) throws -> PlatformCLI.Run {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !finished, condition.wait(until: deadline) {}
        let done = finished
        condition.unlock()
        guard done else {
            kill(SIGKILL)
            throw CLIError("herald \(summary) did not finish in \(Int(timeout)) s")
        }
        condition.lock()
        defer { condition.unlock() }
        if let result { return result }
        try? outHandle.synchronize()
        try? errHandle.synchronize()
        let run = PlatformCLI.Run(status: process.terminationStatus,
                                  stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                                  stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        result = run
        return run
    }

    /// Ended by SIGKILL (only meaningful after `wait`).
    var wasKilled: Bool {
        !isRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Seconds from start to end (to now while it runs).
    var elapsed: TimeInterval {
        condition.lock()
        defer { condition.unlock() }
        return (endedAt ?? Date()).timeIntervalSince(startedAt)
    }

    /// The command line, shortened for messages.
    var summary: String {
        let shown = arguments.prefix(8).joined(separator: " ")
        return arguments.count > 8 ? shown + " … (\(arguments.count) arguments)" : shown
    }
}

/// One command run again and again on its own thread (e.g. "open the workspace") until `stop()`.
final class RepeatingHerald: @unchecked Sendable {
    private let cli: PlatformCLI
    private let arguments: [String]
    private let environment: [String: String]
    private let lock = NSLock()
    private var stopping = false
    private var runs: [PlatformCLI.Run] = []
    private var errors: [String] = []
    private let ended = DispatchSemaphore(value: 0)

    init(_ cli: PlatformCLI, _ arguments: [String], env: [String: String] = [:]) {
        self.cli = cli
        self.arguments = arguments
        self.environment = env
        let thread = Thread { [self] in self.loop() }
        thread.start()
    }

    private func loop() {
        while !(lock.withLock { stopping }) {
            do {
                let run = try cli.run(arguments, env: environment, timeout: 120)
                lock.withLock { runs.append(run) }
            } catch {
                lock.withLock { errors.append("\(error)") }
            }
        }
        ended.signal()
    }

    /// Lets the run under way finish, stops, and answers every run (and the errors of runs that did not end).
    /// Calling it again answers the same at once.
    @discardableResult
    func stop(timeout: TimeInterval = 180) -> (runs: [PlatformCLI.Run], errors: [String]) {
        let first = lock.withLock {
            defer { stopping = true }
            return !stopping
        }
        if first, ended.wait(timeout: .now() + timeout) == .timedOut {
            lock.withLock { errors.append("the loop of herald \(arguments.joined(separator: " ")) did not stop in \(Int(timeout)) s") }
        }
        return lock.withLock { (runs, errors) }
    }
}

// MARK: - PlatformCLI additions

extension PlatformCLI {
    /// The client's store in the data folder.
    var clientDatabase: URL { dataDir.appendingPathComponent("herald.sqlite") }
    /// The embedded platform's database in the data folder.
    var engineDatabase: URL { dataDir.appendingPathComponent("engine.sqlite") }

    /// Starts `herald ARGS --data-dir DIR` without waiting for it.
    func launch(_ args: [String], dataDirOption: Bool = true, env extra: [String: String] = [:]) throws -> LaunchedHerald {
        try LaunchedHerald(binary: binary, arguments: args + (dataDirOption ? ["--data-dir", dataDir.path] : []),
                           environment: processEnvironment(extra), scratch: home)
    }

    /// Starts every command at once, then waits for all of them; answers their runs in the same order.
    func runConcurrently(_ commands: [[String]], env extra: [String: String] = [:], timeout: TimeInterval = 180) throws -> [Run] {
        let launched = try commands.map { try launch($0, env: extra) }
        return try waitForAll(launched, timeout: timeout)
    }

    /// Waits for every process (sharing one deadline); throws after all ended or were killed when one
    /// did not finish in time.
    func waitForAll(_ launched: [LaunchedHerald], timeout: TimeInterval = 180) throws -> [Run] {
        let deadline = Date().addingTimeInterval(timeout)
        var runs: [Run] = []
        var firstError: (any Error)?
        for p in launched {
            do { runs.append(try p.wait(timeout: max(1, deadline.timeIntervalSinceNow))) } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return runs
    }

    /// Rows of `sql` on herald.sqlite.
    func clientRows(_ sql: String) throws -> [[String]] { try SQLiteShell.query(clientDatabase, sql) }
    /// Rows of `sql` on engine.sqlite.
    func engineRows(_ sql: String) throws -> [[String]] { try SQLiteShell.query(engineDatabase, sql) }
    func clientInteger(_ sql: String) throws -> Int { try SQLiteShell.integer(clientDatabase, sql) }
    func engineInteger(_ sql: String) throws -> Int { try SQLiteShell.integer(engineDatabase, sql) }

    /// Counts, in the real files, what became of the numbers asked for (E.164 with `+`).
    func tally(asked: Set<String>) throws -> InvitationTally {
        var accepted: [String: Int] = [:]
        for row in try engineRows("SELECT address, COUNT(*) FROM sent WHERE accepted = 1 GROUP BY address") where row.count == 2 {
            accepted["+" + row[0]] = Int(row[1]) ?? 0
        }
        let failed = try clientRows("SELECT msisdn FROM invitation WHERE status = \(sqlQuote(Soak.sendFailed))").compactMap(\.first)
        let queued = try clientInteger("SELECT COUNT(*) FROM invitation WHERE status = \(sqlQuote(Soak.queued))")
        return InvitationTally(
            asked: asked.count,
            invitedTwice: accepted.filter { $0.value > 1 }.keys.sorted(),
            lost: asked.filter { (accepted[$0] ?? 0) == 0 }.sorted(),
            // Every number these tests ask for is a valid mobile that the embedded platform accepts.
            phantomFailures: failed.filter { asked.contains($0) || accepted[$0] != nil }.sorted(),
            stillQueued: queued)
    }
}

/// What became of a set of numbers asked for, read from herald.sqlite and engine.sqlite.
struct InvitationTally: CustomStringConvertible {
    var asked: Int
    /// Addresses with more than one accepted row in the engine's `sent`.
    var invitedTwice: [String]
    /// Numbers asked for with no accepted row at all.
    var lost: [String]
    /// `invitation` rows that say SendFailed for a number the engine accepted or would accept.
    var phantomFailures: [String]
    /// `invitation` rows still Queued.
    var stillQueued: Int

    var description: String {
        func some(_ list: [String]) -> String { list.prefix(5).joined(separator: ", ") + (list.count > 5 ? ", …" : "") }
        return "asked \(asked); invited twice \(invitedTwice.count) [\(some(invitedTwice))]; lost \(lost.count) [\(some(lost))]; "
            + "phantom failures \(phantomFailures.count) [\(some(phantomFailures))]; still queued \(stillQueued)"
    }
}

extension PlatformCLI.Run {
    /// `herald send` that skipped everything (fine when another process got there first).
    var nothingSent: Bool { status == 1 && stderr.contains("nothing was sent") }

    /// stderr shows a lost race on the databases.
    var racedOnTheDatabase: Bool { Soak.lockedOrRacing.contains { stderr.contains($0) } }

    /// Short form for expectation messages.
    var brief: String {
        let err = stderr.count > 600 ? String(stderr.prefix(600)) + "…" : stderr
        return "exit \(status); stderr: \(err)"
    }
}
