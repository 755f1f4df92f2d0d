import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to a server on 127.0.0.1 that sends exactly the bytes it is given (half a head, a body that never
/// ends, invalid UTF-8 in a request target) and reads what comes back with a deadline: what a hostile client does.
public final class RawConnection: @unchecked Sendable {
    private var fd: Int32

    /// `source`: the loopback address to connect from (127.0.0.2, …), so a test can be several clients; nil: any.
    public init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError("socket: errno \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw RawError("bind to \(source): errno \(code)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw RawError("connect to port \(port): errno \(code)")
        }
    }

    deinit { close() }

    /// The socket, for a caller that polls many connections itself.
    public var descriptor: Int32 { fd }

    /// Sends every byte; false when the server closed the connection.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends `bytes` unless the server stops taking them for `timeout` seconds (or closed); false then.
    public func send(_ bytes: [UInt8], timeout: TimeInterval) -> Bool {
        var offset = 0
        while offset < bytes.count {
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&poller, 1, Int32(timeout * 1000)) == 1, poller.revents & Int16(POLLOUT) != 0 else { return false }
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return false }
            offset += n
        }
        return true
    }

    /// What arrives within `timeout` seconds, and whether the server closed the connection (then sooner). The wait
    /// blocks a thread of its own, never one of the few threads Swift's tasks (and the server under test) run on.
    public func read(timeout: TimeInterval, until stop: @escaping @Sendable (Data) -> Bool = { _ in false }) async -> (data: Data, closed: Bool) {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.blockingRead(timeout: timeout, until: stop)) }.start()
        }
    }

    /// Starts reading now, on a thread of its own, until the server closes the connection or `timeout` passes: what
    /// arrived and when it closed are taken where they happen, so they hold however late the test's own task runs
    /// again on a loaded machine.
    public func watch(timeout: TimeInterval) -> RawWatch {
        let watch = RawWatch()
        Thread {
            var closedAt: Date?
            let (data, closed) = self.blockingRead(timeout: timeout, until: { _ in false }, closedAt: &closedAt)
            watch.finish(data: data, closedAt: closed ? closedAt : nil)
        }.start()
        return watch
    }

    private func blockingRead(timeout: TimeInterval, until stop: (Data) -> Bool) -> (data: Data, closed: Bool) {
        var closedAt: Date?
        return blockingRead(timeout: timeout, until: stop, closedAt: &closedAt)
    }

    private func blockingRead(timeout: TimeInterval, until stop: (Data) -> Bool, closedAt: inout Date?) -> (data: Data, closed: Bool) {
        var data = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return (data, false) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left * 1000)))
            if ready < 0 { if errno == EINTR { continue }; closedAt = Date(); return (data, true) }
            if ready == 0 { return (data, false) }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { closedAt = Date(); return (data, true) }
            data.append(contentsOf: buffer[0..<n])
            if stop(data) { return (data, false) }
        }
    }

    /// The status of the first response that arrives within `timeout`, nil when none does.
    public func status(timeout: TimeInterval) async -> Int? {
        let (data, _) = await read(timeout: timeout) { $0.range(of: Data("\r\n".utf8)) != nil }
        return Self.status(of: data)
    }

    /// Reads one whole response (head and a `Content-Length` body) within `timeout`.
    public func response(timeout: TimeInterval) async -> (status: Int?, head: String, body: String) {
        let (data, _) = await read(timeout: timeout) { data in
            guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
            let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
            guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                  let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return true }
            return data.count - end.upperBound >= length
        }
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return (Self.status(of: data), String(decoding: data, as: UTF8.self), "") }
        return (Self.status(of: data), String(decoding: data[..<end.lowerBound], as: UTF8.self),
                String(decoding: data[end.upperBound...], as: UTF8.self))
    }

    public static func status(of data: Data) -> Int? {
        let text = String(decoding: data.prefix(32), as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    public func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }
}

public struct RawError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// What a connection's background read (`RawConnection.watch`) saw: the bytes, and when the server closed it (nil:
/// still open at the watch's end).
public final class RawWatch: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: (data: Data, closedAt: Date?) = (Data(), nil)

    func finish(data: Data, closedAt: Date?) {
        lock.withLock { outcome = (data, closedAt) }
        done.signal()
    }

    /// Waits (on a thread of its own) for the watch to end.
    public func result() async -> (data: Data, closedAt: Date?) {
        await withCheckedContinuation { continuation in
            Thread {
                self.done.wait()
                self.done.signal()
                continuation.resume(returning: self.lock.withLock { self.outcome })
            }.start()
        }
    }
}
