import Foundation
import HeraldEngine
import HeraldServer
import HeraldTestKit

/// A flood without keys against a server on loopback: `connections` clients each announce a 1 MiB body, send up to
/// 1 MiB of it and never finish, holding their connections open. Prints the resident memory of this process (server
/// and clients) before and during the flood, and how long `/health` takes to answer meanwhile.
func floodBench(dir: URL, connections: Int = 1500) async throws {
    var config = EngineConfig(timeScale: 1)
    config.collectReportsOnRead = false
    let engine = try PlatformEngine.open(at: dir.appendingPathComponent("flood-engine.sqlite"), config: config)
    _ = try await engine.bootstrapSandbox()
    let listening = AsyncStream<String>.makeStream()
    let server = HeraldServer(engine: engine, options: benchServerOptions())
    let serving = Task { try await server.run(handleSignals: false) { listening.continuation.yield($0) } }
    defer { serving.cancel() }
    var iterator = listening.stream.makeAsyncIterator()
    guard let address = await iterator.next(), let port = URL(string: address)?.port else { throw BenchError("the server did not start") }

    func health() async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let c = try RawConnection(port: port)
        c.send("GET /health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        guard await c.status(timeout: 10) == 200 else { throw BenchError("/health did not answer 200 during the flood") }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
    for _ in 0..<20 { _ = try await health() }
    let before = currentRSSMegabytes()
    let head = "POST /1/social-invite/invitation HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n"
    let chunk = [UInt8](repeating: 0x61, count: 64 << 10)
    var open: [RawConnection] = []
    var bodyBytes = 0
    var peak = before
    let started = DispatchTime.now().uptimeNanoseconds
    for i in 0..<connections {
        let c = try RawConnection(port: port)
        guard c.send(head) else { continue }
        // Up to 1 MiB of body in 64 KiB pieces, until the server stops taking it; a piece never blocks for long, as
        // the server answered the head already.
        for _ in 0..<16 {
            guard c.send(chunk, timeout: 0.05) else { break }
            bodyBytes += chunk.count
        }
        open.append(c)
        if i % 100 == 99 { peak = max(peak, currentRSSMegabytes()) }
    }
    let floodSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    var latencies: [Double] = []
    for _ in 0..<50 {
        latencies.append(try await health())
        peak = max(peak, currentRSSMegabytes())
    }
    latencies.sort()
    var answers: [Int: Int] = [:]
    for c in open { answers[await c.status(timeout: 1) ?? 0, default: 0] += 1 }
    let refused = answers.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key == 0 ? "no answer" : String($0.key))" }
    say("flood:    \(open.count) keyless connections, \(fmt(Double(bodyBytes) / 1_048_576, 0)) MiB of body written to their sockets in "
        + "\(fmt(floodSeconds)) s, answered from the head alone: \(refused.joined(separator: ", ")): resident \(fmt(before, 0)) MB before, \(fmt(peak, 0)) MB "
        + "at most during (bench and server in one process)")
    say("flood:    /health during the flood: p50 \(fmt(percentile(latencies, 0.5))) ms, p99 \(fmt(percentile(latencies, 0.99))) ms, "
        + "max \(fmt(latencies.last ?? 0)) ms")
    open.forEach { $0.close() }
}

/// Resident memory of this process now (VmRSS).
func currentRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
    return kilobytes / 1024
}
