import Foundation
import HeraldEngine
import HeraldServer
import HeraldTestKit
import Logging
import Testing

/// Cancelling the task that runs a server shuts it down as a signal would: a connection open at that moment is
/// closed by the server, not cut, and nothing is logged as an error (herald-bench logged "Waiting on child channel:
/// CancellationError()" at every stop).
@Suite struct ServerShutdownTests {
    @Test func aCancelledServerEndsGracefullyAndLogsNoError() async throws {
        let tempDir = try TempDir("shutdown")
        let folder = tempDir.url
        let engine = try PlatformEngine.open(at: folder.appendingPathComponent("engine.sqlite"), config: EngineConfig())
        let records = LogRecords()
        let log = Logger(label: "herald.server") { _ in RecordingLogHandler(records: records) }
        let listening = AsyncStream<String>.makeStream()
        let server = HeraldServer(engine: engine, options: ServerOptions(host: "127.0.0.1", port: 0))
        let task = Task { try await server.run(handleSignals: false, log: log) { listening.continuation.yield($0) } }
        var addresses = listening.stream.makeAsyncIterator()
        let address = try #require(await addresses.next())
        let port = try #require(URL(string: address)?.port)

        // A kept-alive connection, answered once and open when the task is cancelled.
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        #expect(connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        #expect(await connection.status(timeout: 10) == 200)
        task.cancel()
        try await task.value
        let after = await connection.read(timeout: 5)
        #expect(after.closed, "the server closed the kept-alive connection")
        #expect(records.errors.isEmpty, "\(records.errors)")
    }
}

final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [(Logger.Level, String)] = []
    func append(_ level: Logger.Level, _ message: String) { lock.withLock { kept.append((level, message)) } }
    var errors: [String] { lock.withLock { kept.filter { $0.0 >= .error }.map(\.1) } }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(event.level, "\(event.message)")
    }
}
