import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An advisory lock on a file (`flock`), shared by every process that opens the same path. The
/// kernel releases it when its holder exits, also on SIGKILL, so a lock that can be taken proves
/// its last holder is gone: no guessing from timestamps or process ids.
public final class FileLock: @unchecked Sendable {
    public let path: String
    private var fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { unlock() }

    /// Waits (polling every 20 ms, at most `timeout` seconds) for the exclusive lock on `path`,
    /// creating the file when missing. `onWait` is called once if the lock is not free at once.
    public static func acquire(_ path: String, timeout: TimeInterval = 120,
                               onWait: (() -> Void)? = nil) throws(FileLockError) -> FileLock {
        let fd = try openLockFile(path)
        var waited = false
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw .failed(path, String(cString: strerror(code)))
            }
            if !waited { waited = true; onWait?() }
            if Date() >= deadline {
                close(fd)
                throw .timedOut(path, timeout)
            }
            usleep(20_000)
        }
        return FileLock(path: path, fd: fd)
    }

    /// What a lock file says about its holder.
    public enum Probe {
        /// No such file: nobody holds it (a holder removes its file before it lets go).
        case missing
        /// Another open file description holds it: its holder is alive.
        case held
        /// Nobody held it; now this process does.
        case taken(FileLock)
    }

    /// Takes the lock on an existing file when nobody holds it; never creates the file.
    public static func probe(_ path: String) throws(FileLockError) -> Probe {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return .missing }
            throw .failed(path, String(cString: strerror(code)))
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return .held }
            throw .failed(path, String(cString: strerror(code)))
        }
        return .taken(FileLock(path: path, fd: fd))
    }

    /// Takes the lock on a new file at a temporary name, then renames it to `path`, so nobody can
    /// see the file at `path` before it is held.
    public static func create(_ path: String) throws(FileLockError) -> FileLock {
        let temporary = path + ".new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = try openLockFile(temporary)
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            throw .failed(path, why)
        }
        return FileLock(path: path, fd: fd)
    }

    /// Releases the lock (also done when the value goes away).
    public func unlock() {
        guard fd >= 0 else { return }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }

    private static func openLockFile(_ path: String) throws(FileLockError) -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(path, String(cString: strerror(errno))) }
        return fd
    }
}

public enum FileLockError: Error, Sendable, Hashable, CustomStringConvertible {
    case failed(String, String)
    case timedOut(String, TimeInterval)

    public var description: String {
        switch self {
        case .failed(let path, let why): return "cannot lock \(path): \(why)"
        case .timedOut(let path, let seconds):
            return "another Herald process held \(path) for over \(Int(seconds)) s; try again when it has finished"
        }
    }
}
