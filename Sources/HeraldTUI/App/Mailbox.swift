import Foundation

/// A thread-safe queue of events for the app loop. Any thread or actor may `post`; the first post
/// after a drain writes one byte to a pipe, which wakes the loop's poll().
nonisolated public final class Mailbox<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [Event] = []
    private var signalled = false
    /// Read end of the wake pipe (the loop polls it).
    public let wakeReadDescriptor: Int32
    /// Write end of the wake pipe (a signal handler may write one byte to it).
    public let wakeWriteDescriptor: Int32

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TerminalError(description: "cannot create the wake pipe: errno \(errno)") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeReadDescriptor = fds[0]
        wakeWriteDescriptor = fds[1]
    }

    deinit {
        close(wakeReadDescriptor)
        close(wakeWriteDescriptor)
    }

    /// Queues `event` and wakes the loop.
    public func post(_ event: Event) {
        let needsWake: Bool = lock.withLock {
            events.append(event)
            defer { signalled = true }
            return !signalled
        }
        if needsWake { wake() }
    }

    /// Wakes the loop without an event.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriteDescriptor, &byte, 1)
    }

    /// Takes every queued event (oldest first) and empties the wake pipe.
    public func drain() -> [Event] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeReadDescriptor, &buffer, buffer.count) > 0 {}
        return lock.withLock {
            defer { events = []; signalled = false }
            return events
        }
    }

    /// Number of queued events.
    public var count: Int { lock.withLock { events.count } }
}
