import AsyncHTTPClient
import Foundation
import HeraldAPI
import HeraldEngine
import HeraldEnginePostgres
import HeraldHTTP
import HeraldServer
import HeraldTestKit

/// `herald serve` on a loopback port, on SQLite and then on PostgreSQL (a throwaway cluster, when PostgreSQL is
/// installed): recipients accepted per second at 1,000 per request, deliveryInfos requests per second, and how long
/// a status takes from the send to 1,000 event-stream subscribers.
func serverBench(_ o: BenchOptions, dir: URL) async throws {
    var config = EngineConfig(timeScale: 1)
    config.collectReportsOnRead = false
    let sqlite = try PlatformEngine.open(at: dir.appendingPathComponent("server-engine.sqlite"), config: config)
    try await serverBench(sqlite, store: "SQLite")
    guard PostgresTestCluster.isInstalled else {
        say("server:   PostgreSQL is not installed here: its figures are skipped")
        return
    }
    let cluster = try PostgresTestCluster.start()
    defer { cluster.stop() }
    let postgres = try await PostgresEngineStore.open(url: cluster.url)
    try await serverBench(try PlatformEngine.open(store: postgres, config: config), store: "PostgreSQL")
    await postgres.close()
}

private func serverBench(_ engine: PlatformEngine, store: String) async throws {
    let app = try await engine.bootstrapSandbox()
    let key = try await engine.createServerKey(role: .sender, name: "bench").key
    let (url, serving) = try await startServer(engine)
    defer { serving.cancel() }
    let client = benchClient(connections: 128)
    defer { _ = client.shutdown() }
    let transport = HTTPTransport(baseURL: url, timeout: 60, client: client)

    func send(_ count: Int, from start: Int) async throws -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: app.messageKey, sender: "Herald", destinations: (start..<start + count).map {
            SendInvitationBody.Destination(address: "3859\(String(format: "%08d", 10_000_000 + $0))")
        })
        let endpoint = SendInvitation(secret: key, body: body)
        return try endpoint.decode(try await transport.send(try endpoint.request())).sendSmsResponse
    }

    // Recipients accepted per second: 20 requests of 1,000, one after another.
    let requests = 20
    var bulkIds: [String] = []
    let acceptStart = DispatchTime.now().uptimeNanoseconds
    for r in 0..<requests { bulkIds.append(try await send(1000, from: r * 1000).bulkId) }
    let acceptSeconds = Double(DispatchTime.now().uptimeNanoseconds - acceptStart) / 1e9
    say("server:   \(fmt(Double(requests * 1000) / acceptSeconds, 0)) recipients accepted/s (\(store), 1,000 per request, \(requests) requests)")

    // deliveryInfos of a 1,000-recipient bulk, 4 at a time.
    let reads = 200
    let bulks = bulkIds
    let readStart = DispatchTime.now().uptimeNanoseconds
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<4 {
            group.addTask {
                for i in stride(from: worker, to: reads, by: 4) {
                    let endpoint = GetDeliveryInfos(secret: key, bulkId: bulks[i % bulks.count])
                    _ = try endpoint.decode(try await transport.send(try endpoint.request()))
                }
            }
        }
        try await group.waitForAll()
    }
    let readSeconds = Double(DispatchTime.now().uptimeNanoseconds - readStart) / 1e9
    say("server:   \(fmt(Double(reads) / readSeconds, 0)) deliveryInfos requests/s (\(store), 1,000 recipients each, 4 clients)")

    // From the send to 1,000 subscribers: each send's bulk event, timed at every subscriber. First on a quiet server
    // (the carrier done with the 20,000 messages above), then while the carrier is busy.
    let quietFrom = DispatchTime.now().uptimeNanoseconds
    while try await engine.carrierQueue() > 0 { try await Task.sleep(nanoseconds: 50_000_000) }
    say("server:   carrier done with \(requests * 1000) messages \(fmt(Double(DispatchTime.now().uptimeNanoseconds - quietFrom) / 1e9)) s "
        + "after the last send (the simulated carrier's last statuses come up to 14 s after sending)")
    let subscribers = ProcessInfo.processInfo.environment["HERALD_BENCH_SUBSCRIBERS"].flatMap(Int.init) ?? 1000
    let arrivals = try RawSubscribers(port: url.port ?? 0, key: key, count: subscribers)
    defer { arrivals.stop() }
    let connectDeadline = Date().addingTimeInterval(60)
    while arrivals.connected < subscribers, Date() < connectDeadline { try await Task.sleep(nanoseconds: 10_000_000) }
    func measure(_ sends: Int, from first: Int, _ what: String) async throws {
        var latencies: [Double] = []
        var roundTrips: [Double] = []
        for r in 0..<sends {
            let start = DispatchTime.now().uptimeNanoseconds
            let bulk = try await send(1, from: first + r).bulkId
            roundTrips.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            arrivals.expect(bulk, at: start)
            let deadline = Date().addingTimeInterval(5)
            while arrivals.count(bulk) < subscribers, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
            latencies += arrivals.latencies(bulk)
        }
        latencies.sort()
        say("server:   send → \(subscribers) SSE subscribers (\(store), \(what)): p50 \(fmt(percentile(latencies, 0.5))) ms, "
            + "p99 \(fmt(percentile(latencies, 0.99))) ms (\(latencies.count) of \(sends * subscribers) deliveries within 5 s; "
            + "includes the send's own round trip, p50 \(fmt(percentile(roundTrips.sorted(), 0.5))) ms)")
    }
    try await measure(50, from: 100_000, "carrier idle")
    // Again while the carrier stores the statuses of 5,000 new messages (whose events go to every subscriber too).
    for r in 0..<5 { _ = try await send(1000, from: 200_000 + r * 1000) }
    try await measure(50, from: 300_000, "carrier storing 5,000 statuses")
}

/// `herald serve` on `engine` at a free loopback port, in this process: its address, and the task to cancel.
func startServer(_ engine: PlatformEngine) async throws -> (url: URL, task: Task<Void, any Error>) {
    let listening = AsyncStream<String>.makeStream()
    let server = HeraldServer(engine: engine, options: benchServerOptions())
    let serving = Task { try await server.run(handleSignals: false) { listening.continuation.yield($0) } }
    var iterator = listening.stream.makeAsyncIterator()
    guard let address = await iterator.next(), let url = URL(string: address) else {
        serving.cancel()
        throw BenchError("the server did not start")
    }
    return (url, serving)
}

/// A server's options for a bench: every client is this process on 127.0.0.1 with one key, so the per-address and
/// per-key shares are the whole server.
func benchServerOptions() -> ServerOptions {
    var options = ServerOptions(host: "127.0.0.1", port: 0)
    options.maxConnectionsPerAddress = options.maxConnections
    options.maxStreamsPerKey = options.maxConnections
    return options
}

/// An HTTP client for several requests at once: its pool is not capped at 8 connections per host.
func benchClient(connections: Int) -> HTTPClient {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
}

/// Prints a figure at once (stdout may be a pipe).
func say(_ line: String) {
    print(line)
    fflush(nil)
}
