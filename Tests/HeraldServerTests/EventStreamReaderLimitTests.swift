import Foundation
import HeraldAPI
import HeraldHTTP
import Testing

/// The terminal's event-stream reader against a server that never ends an event (a tiny Python server on loopback):
/// the reader holds at most its limit, drops the connection saying why, and connects again as after any failure.
@Suite(.serialized) struct EventStreamReaderLimitTests {
    /// Answers /1/features with messaging 2 and /1/events with one `data:` line that never ends; prints "port N", then
    /// "events" for each stream it opens.
    static let endlessServer = #"""
        import http.server, socketserver, sys
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *a): pass
            def do_GET(self):
                if self.path.startswith("/1/features"):
                    body = b'{"features": {"messaging": 2}}'
                    self.send_response(200); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body); return
                print("events", flush=True)
                self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.end_headers()
                try:
                    self.wfile.write(b"data: ")
                    while True: self.wfile.write(b"x" * 65536)
                except OSError:
                    pass
        class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
        s = S(("127.0.0.1", 0), H)
        print("port", s.server_address[1], flush=True)
        s.serve_forever()
        """#

    final class Updates: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [PlatformStreamUpdate] = []
        func add(_ u: PlatformStreamUpdate) { lock.withLock { all.append(u) } }
        var values: [PlatformStreamUpdate] { lock.withLock { all } }
    }

    @Test func anEndlessEventIsCutOffAtTheLimitAndTheStreamOpenedAgain() async throws {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", Self.endlessServer]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        // SIGKILL: a child of the test process starts with SIGTERM blocked.
        defer { kill(server.processIdentifier, SIGKILL); server.waitUntilExit() }
        let lines = LineReader(out.fileHandleForReading)
        let portLine = try #require(await lines.next(timeout: 30), "the server did not start")
        let port = try #require(Int(portLine.split(separator: " ").last ?? ""))

        var configured = EventStreamClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, key: "k", maxBackoff: 0.2)
        configured.maxEventBytes = 256 * 1024
        let reader = configured
        let updates = Updates()
        let following = Task { await reader.follow(after: nil) { updates.add($0) } }
        defer { following.cancel() }
        // Two streams opened: the first was dropped at the limit, and the reader came back.
        #expect(await lines.next(timeout: 30) == "events")
        #expect(await lines.next(timeout: 30) == "events", "the reader did not open the stream again")
        let reasons = updates.values.compactMap { update -> String? in
            if case .link(.reconnecting(_, let reason)) = update { return reason }
            return nil
        }
        #expect(reasons.first == "cannot reach the platform: the server sent an event longer than 262144 bytes; "
                + "the stream is dropped and opened again", "\(updates.values)")
    }
}

/// Lines of a pipe, each waited for at most a while.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line, waited for on a thread of its own. Blocking here instead held one of the two threads Swift's
    /// tasks run on (on two cores), the one the reader under test needed while other suites held the other: under
    /// load the reader never connected and the test failed in every run.
    func next(timeout: TimeInterval) async -> String? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.blockingNext(timeout: timeout)) }.start()
        }
    }

    private func blockingNext(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...end)
                return line
            }
            var poll = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard Glibc.poll(&poll, 1, 200) >= 0 else { return nil }
            if poll.revents != 0 {
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
            }
        }
        return nil
    }
}
