import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error raised while starting, using or stopping a ``PostgresTestCluster``.
///
/// The message names the command that failed and includes what it wrote to standard error, and, when the
/// server would not start, the last lines of the server log.
public struct PostgresTestClusterError: Error, CustomStringConvertible, Sendable {
    /// A readable explanation of what went wrong.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A throwaway PostgreSQL cluster for tests.
///
/// `start()` creates a new cluster in a fresh directory under `/tmp`, starts a server on `127.0.0.1` at a free
/// port and creates the database `herald`. The server trusts every local connection and is tuned for speed,
/// not durability (no fsync), so it must only ever hold test data. `stop()`, or dropping the last reference,
/// shuts the server down and deletes the directory.
///
/// When the tests run as root, every server command runs as the `postgres` system user, because PostgreSQL
/// refuses to run as root. Client commands (`createdb`, `pg_isready`) connect over TCP and run as the caller.
public final class PostgresTestCluster: @unchecked Sendable {
    /// The TCP port the server listens on, at `127.0.0.1`.
    public let port: Int
    /// The directory holding the data directory, the server log and the Unix socket.
    public let directory: URL

    private let binDirectory: URL
    /// The server in the foreground (through `runuser` when we are root); see `launchServer`.
    private let server: Process
    private let lock = NSLock()
    private var stopped = false

    /// The connection URL of the database `herald`: `postgres://postgres@127.0.0.1:PORT/herald`.
    public var url: String { Self.url(port: port, database: "herald") }

    /// Whether PostgreSQL server binaries exist on this machine.
    public static var isInstalled: Bool { findBinDirectory() != nil }

    private init(port: Int, directory: URL, binDirectory: URL, server: Process) {
        self.port = port
        self.directory = directory
        self.binDirectory = binDirectory
        self.server = server
    }

    deinit {
        stop()
    }

    /// Creates, starts and returns a new cluster holding an empty database `herald` owned by `postgres`.
    ///
    /// If the chosen port is taken by the time the server starts, it tries again with another one. On failure
    /// nothing is left behind: any server is stopped and the directory is removed.
    /// `tls`: a certificate and key (PEM) the server offers TLS with (`ssl=on`); plain connections are taken too.
    public static func start(tls: (certificate: String, key: String)? = nil) throws -> PostgresTestCluster {
        guard let bin = findBinDirectory() else {
            throw PostgresTestClusterError(
                "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/pg_ctl, and pg_config --bindir has none)")
        }
        let directory = try makeDirectory()
        do {
            let data = directory.appendingPathComponent("data").path
            try runAsServerUser(bin, "initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                                               "--locale=C", "--no-sync", "--no-instructions"], in: directory)
            var settings: [String] = []
            if let tls {
                let certificate = directory.appendingPathComponent("server.crt"), key = directory.appendingPathComponent("server.key")
                try FileManager.default.copyItem(atPath: tls.certificate, toPath: certificate.path)
                try FileManager.default.copyItem(atPath: tls.key, toPath: key.path)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
                if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", certificate.path, key.path], in: directory) }
                settings = ["-c", "ssl=on", "-c", "ssl_cert_file=\(certificate.path)", "-c", "ssl_key_file=\(key.path)"]
            }
            var lastError: Error = PostgresTestClusterError("the server never started")
            for _ in 1...5 {
                let port = try freePort()
                let server = try launchServer(bin, directory: directory, port: port, settings: settings)
                do {
                    try waitUntilReady(bin, server: server, directory: directory, port: port)
                    try createDatabase(bin, "herald", port: port, in: directory)
                    return PostgresTestCluster(port: port, directory: directory, binDirectory: bin, server: server)
                } catch {
                    lastError = error
                    stopServer(server, directory: directory)
                }
            }
            throw lastError
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Creates a new empty database named `name`, owned by `postgres`, and returns its connection URL
    /// `postgres://postgres@127.0.0.1:PORT/NAME`.
    public func createDatabase(_ name: String) throws -> String {
        try Self.createDatabase(binDirectory, name, port: port, in: directory)
        return Self.url(port: port, database: name)
    }

    /// Stops the server at once (PostgreSQL's immediate shutdown) and deletes the directory.
    ///
    /// Calling it again does nothing. It is also called when the cluster is deallocated.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        thaw()
        Self.stopServer(server, directory: directory)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops every process of the server (SIGSTOP), as a database that hangs does: connections stay open and nothing
    /// answers. `thaw()` lets it go on; `stop()` thaws it first.
    public func freeze() { signalServerProcesses(SIGSTOP) }

    public func thaw() { signalServerProcesses(SIGCONT) }

    /// The postmaster and its children (backends, background workers), read from /proc.
    private func signalServerProcesses(_ number: Int32) {
        let pidFile = directory.appendingPathComponent("data").appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
              let postmaster = text.split(separator: "\n").first.flatMap({ pid_t($0.trimmingCharacters(in: .whitespaces)) }) else { return }
        var pids = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (name) state ppid": the parent's id is the second field after the name.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { pids.append(pid) }
        }
        for pid in pids { kill(pid, number) }
    }

    // MARK: - Server commands

    /// Launches `postgres` itself as a child process, logging to `server.log`.
    ///
    /// Not `pg_ctl start`: on Linux, Foundation's `Process` notices that a child ended only when every holder of
    /// a socket it hands the child has closed it, and the server `pg_ctl` leaves behind keeps that socket, so
    /// waiting for `pg_ctl` would hang until the server stops (swift-corelibs-foundation issue 4795). Keeping
    /// the server as the child makes that harmless: it is meant to end only when we stop it.
    private static func launchServer(_ bin: URL, directory: URL, port: Int, settings: [String]) throws -> Process {
        let log = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        try logHandle.seekToEnd()
        let arguments = ["-D", directory.appendingPathComponent("data").path, "-p", String(port),
                         "-k", directory.path, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                         "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200"] + settings
        let (executable, fullArguments) = asServerUser(bin.appendingPathComponent("postgres").path, arguments)
        let process = makeProcess(executable, fullArguments, in: directory)
        process.standardOutput = logHandle
        process.standardError = logHandle
        do {
            try process.run()
        } catch {
            throw PostgresTestClusterError("could not run `\(executable)`: \(error)")
        }
        return process
    }

    /// Waits until the server accepts TCP connections (`pg_isready`), for up to a minute.
    private static func waitUntilReady(_ bin: URL, server: Process, directory: URL, port: Int) throws {
        let log = directory.appendingPathComponent("server.log")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if !server.isRunning {
                throw PostgresTestClusterError(
                    "the server on port \(port) ended at once\n--- end of \(log.path) ---\n\(tail(of: log))")
            }
            if (try? run(bin.appendingPathComponent("pg_isready").path,
                         ["-q", "-h", "127.0.0.1", "-p", String(port), "-t", "1"], in: directory)) != nil {
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw PostgresTestClusterError(
            "the server on port \(port) was not ready within a minute\n--- end of \(log.path) ---\n\(tail(of: log))")
    }

    /// Stops the server at once: SIGQUIT to the postmaster (PostgreSQL's immediate shutdown), then waits up to ten
    /// seconds for it to end. Signals only, no child process: it also works from an `atexit` handler.
    private static func stopServer(_ server: Process, directory: URL) {
        let pidFile = directory.appendingPathComponent("data").appendingPathComponent("postmaster.pid")
        let postmaster = (try? String(contentsOf: pidFile, encoding: .utf8))?
            .split(separator: "\n").first.flatMap { pid_t($0.trimmingCharacters(in: .whitespaces)) }
        if let postmaster, postmaster > 0 {
            kill(postmaster, SIGQUIT)
            let deadline = Date().addingTimeInterval(10)
            while kill(postmaster, 0) == 0, Date() < deadline { usleep(20_000) }
            if kill(postmaster, 0) == 0 { kill(postmaster, SIGKILL) }
        }
        let wrapper = server.processIdentifier
        if wrapper > 0, kill(wrapper, 0) == 0 { kill(wrapper, SIGTERM) }
    }

    private static func createDatabase(_ bin: URL, _ name: String, port: Int, in directory: URL) throws {
        try run(bin.appendingPathComponent("createdb").path,
                ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-O", "postgres", name], in: directory)
    }

    private static func url(port: Int, database: String) -> String {
        let path = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        return "postgres://postgres@127.0.0.1:\(port)/\(path)"
    }

    // MARK: - Machine

    /// The directory of the newest installed PostgreSQL, from `/usr/lib/postgresql/*/bin` or `pg_config --bindir`.
    private static func findBinDirectory() -> URL? {
        let fileManager = FileManager.default
        let root = "/usr/lib/postgresql"
        let versions = ((try? fileManager.contentsOfDirectory(atPath: root)) ?? [])
            .filter { fileManager.isExecutableFile(atPath: "\(root)/\($0)/bin/pg_ctl") }
            .sorted { $0.compare($1, options: .numeric) == .orderedAscending }
        if let newest = versions.last {
            return URL(fileURLWithPath: "\(root)/\(newest)/bin")
        }
        guard let output = try? run("/usr/bin/env", ["pg_config", "--bindir"], in: URL(fileURLWithPath: "/")) else {
            return nil
        }
        let path = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return fileManager.isExecutableFile(atPath: "\(path)/pg_ctl") ? URL(fileURLWithPath: path) : nil
    }

    /// Creates an empty directory under `/tmp` that the server user owns.
    ///
    /// It lives under `/tmp` rather than `$TMPDIR` so that the `postgres` user can reach it and the Unix
    /// socket path stays under the 107-byte limit.
    private static func makeDirectory() throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp/herald-pg-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        if getuid() == 0 {
            do {
                try run("/bin/chown", ["postgres:postgres", directory.path], in: directory)
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
        }
        return directory
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago: the one the system picks when binding to port 0.
    public static func freePort() throws -> Int {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw PostgresTestClusterError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 ? getsockname(descriptor, socketAddress, &length) : -1
            }
        }
        guard result == 0 else { throw PostgresTestClusterError("could not pick a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The last 30 lines of a log file, or a note that it could not be read.
    private static func tail(of file: URL) -> String {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return "(no log at \(file.path))" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n")
    }

    // MARK: - Processes

    /// Runs a PostgreSQL program as the server user and returns its standard output.
    @discardableResult
    private static func runAsServerUser(_ bin: URL, _ program: String, _ arguments: [String],
                                        in directory: URL) throws -> String {
        let (executable, fullArguments) = asServerUser(bin.appendingPathComponent(program).path, arguments)
        return try run(executable, fullArguments, in: directory)
    }

    /// The command line that runs a program as the `postgres` user when we are root (with `runuser`, or `su`
    /// where there is none), or unchanged otherwise.
    private static func asServerUser(_ executable: String, _ arguments: [String]) -> (String, [String]) {
        guard getuid() == 0 else { return (executable, arguments) }
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let runuser {
            return (runuser, ["-u", "postgres", "--", executable] + arguments)
        }
        // `exec` so that the program replaces the shell and receives signals itself.
        let command = "exec " + ([executable] + arguments).map(shellQuoted).joined(separator: " ")
        return ("/bin/su", ["postgres", "-s", "/bin/sh", "-c", command])
    }

    /// The caller's environment without `PG*` variables, so that its settings cannot redirect a command.
    private static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
    }

    /// A process of `executable` run in `directory`, without `PG*` variables and with nothing on its input.
    private static func makeProcess(_ executable: String, _ arguments: [String], in directory: URL) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = cleanEnvironment()
        process.standardInput = FileHandle.nullDevice
        return process
    }

    private static func shellQuoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a program in `directory` and returns its standard output; throws with its standard error when it
    /// exits with a non-zero status.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], in directory: URL) throws -> String {
        let process = makeProcess(executable, arguments, in: directory)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let commandLine = ([executable] + arguments).joined(separator: " ")
        do {
            try process.run()
        } catch {
            throw PostgresTestClusterError("could not run `\(commandLine)`: \(error)")
        }
        // Drain both pipes at once so that a chatty command cannot block on a full pipe.
        let errorReader = PipeReader(errors.fileHandleForReading)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorReader.readToEnd() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        exited.wait()
        let standardOutput = String(decoding: outputData, as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let standardError = String(decoding: errorReader.data, as: UTF8.self)
            throw PostgresTestClusterError(
                "`\(commandLine)` failed with status \(process.terminationStatus):\n\(standardError)\(standardOutput)")
        }
        return standardOutput
    }
}

/// Reads a pipe to its end on another thread; `data` is only read once that thread is done.
private final class PipeReader: @unchecked Sendable {
    private let handle: FileHandle
    private(set) var data = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func readToEnd() {
        data = handle.readDataToEndOfFile()
    }
}
