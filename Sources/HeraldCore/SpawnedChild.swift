import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its stdin, stdout and stderr on pipes of its own, every other
/// descriptor of Herald closed in it, in a process group of its own (as Foundation's `Process` puts it), with the
/// signals Herald ignores (SIGPIPE) back at their defaults. Not Foundation's `Process`: on Linux its `run()` reads
/// `/proc/self/fd` past the end of glibc's buffer and crashes now and then (swift-corelibs-foundation #5472).
public struct SpawnedChild: Sendable {
    public let pid: pid_t
    /// Herald's ends of the pipes.
    public let stdin: FileHandle
    public let stdout: FileHandle
    public let stderr: FileHandle

    /// The errno of a start that failed.
    public struct StartError: Error, Sendable {
        public let value: Int32
        public var description: String { String(cString: strerror(value)) }
    }

    /// Starts `path` (a path, not looked up on PATH) with `arguments` and exactly `environment`.
    public init(path: String, arguments: [String], environment: [String: String]) throws(StartError) {
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            // Close-on-exec, so no other child inherits them (pipe2 is not visible from Swift; closefrom covers ours).
            guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
                let code = errno
                for fd in pipes.joined() + ends where fd >= 0 { _ = close(fd) }
                throw StartError(value: code)
            }
            pipes.append(ends)
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        _ = Self.closeFrom?(&actions, 3)
        var pid: pid_t = 0
        let started = SpawnSetup.spawn(&pid, [path] + arguments, environment: environment, actions: &actions, ownGroup: true)
        // The child's ends are the child's now (or nobody's, when it did not start).
        for fd in [input[0], output[1], errors[1]] { _ = close(fd) }
        guard started == 0 else {
            for fd in [input[1], output[0], errors[0]] { _ = close(fd) }
            throw StartError(value: started)
        }
        self.pid = pid
        stdin = FileHandle(fileDescriptor: input[1], closeOnDealloc: true)
        stdout = FileHandle(fileDescriptor: output[0], closeOnDealloc: true)
        stderr = FileHandle(fileDescriptor: errors[0], closeOnDealloc: true)
    }

    /// Waits for the child to end (blocking the calling thread): its exit status, or the signal that ended it.
    public func waitForExit() -> (status: Int32, killedBySignal: Bool) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return (127, true) }      // lost (reaped elsewhere)
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot see.
        return status & 0x7F == 0 ? ((status >> 8) & 0xFF, false) : (status & 0x7F, true)
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not show;
    /// without it the child inherits only what Herald opened without O_CLOEXEC.
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
}

/// What every child Herald starts with `posix_spawn` shares: every signal at its default and none blocked (Herald
/// ignores SIGPIPE and blocks others; a child must not inherit that), and its arguments and environment as C strings.
public enum SpawnSetup {
    /// `posix_spawn` of `arguments` (the first a path) with exactly `environment`; `ownGroup` puts the child in a process
    /// group of its own. The spawn's result (0, or an errno).
    public static func spawn(_ pid: inout pid_t, _ arguments: [String], environment: [String: String],
                             actions: UnsafePointer<posix_spawn_file_actions_t>?, ownGroup: Bool) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var argv = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        argv.append(nil)
        var envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        envp.append(nil)
        return posix_spawn(&pid, arguments[0], actions, &attributes, &argv, &envp)
    }
}
