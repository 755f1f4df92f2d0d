import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls back when files of a folder whose names start with a prefix are written, created, moved or
/// removed, with their names — for SQLite in WAL mode, every commit of any process writes
/// `herald.sqlite-wal`; in a vdir book, the card files another program changed. Linux inotify on a
/// thread of its own, so nothing runs while nothing is written. The names are nil when the system
/// lost track (its event queue overflowed, or the folder itself was moved or removed): anything may
/// have changed. Where inotify is not available `start` returns nil and callers keep polling.
public final class FolderWatch: @unchecked Sendable {
    private let descriptor: Int32
    /// Written once by `stop()` to end the reading thread's poll.
    private let stopPipe: [Int32]
    private let prefix: String
    private let onChange: @Sendable (Set<String>?) -> Void
    private let lock = NSLock()
    private var stopped = false

    /// Starts watching `folder`; nil when the system cannot watch it.
    public static func start(folder: String, prefix: String, onChange: @escaping @Sendable (Set<String>?) -> Void) -> FolderWatch? {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
            | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        guard inotify_add_watch(fd, folder, mask) >= 0 else { close(fd); return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { close(fd); return nil }
        let watch = FolderWatch(descriptor: fd, stopPipe: pipeEnds, prefix: prefix, onChange: onChange)
        let thread = Thread { watch.readEvents() }
        thread.name = "herald-folder-watch"
        thread.start()
        return watch
        #else
        return nil
        #endif
    }

    private init(descriptor: Int32, stopPipe: [Int32], prefix: String, onChange: @escaping @Sendable (Set<String>?) -> Void) {
        self.descriptor = descriptor
        self.stopPipe = stopPipe
        self.prefix = prefix
        self.onChange = onChange
    }

    /// Stops watching (the reading thread ends).
    public func stop() {
        let first: Bool = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first {
            var byte: UInt8 = 1
            _ = write(stopPipe[1], &byte, 1)
        }
    }

    deinit {
        stop()
    }

    #if os(Linux)
    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let header = MemoryLayout<inotify_event>.size
        defer {
            close(descriptor)
            close(stopPipe[0])
            close(stopPipe[1])
        }
        while true {
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 { if errno == EINTR { continue } else { return } }
            if fds[1].revents != 0 { return }      // stop()
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return
            }
            var offset = 0
            var names: Set<String>? = []
            let lost = UInt32(IN_Q_OVERFLOW) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF) | UInt32(IN_IGNORED)
            while offset + header <= count {
                let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
                offset += header + length
                if mask & lost != 0 { names = nil; continue }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if !nameBytes.isEmpty, name.hasPrefix(prefix) { names?.insert(name) }
            }
            if names?.isEmpty != true { onChange(names) }
        }
    }
    #endif
}
