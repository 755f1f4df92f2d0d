import Foundation
import HeraldAPI
import HeraldEngine
import HeraldCore
import HeraldHTTP
import HeraldServer

/// A real Herald server on a free loopback port, on its own engine store (a SQLite file by default, or a fresh
/// PostgreSQL database: the engine harness's stores), with a sender, a viewer and an admin key; stopped and removed by
/// `stop()`.
public final class ServerHarness: @unchecked Sendable {
    public let dir: TempDir
    public var folder: URL { dir.url }
    public let engine: PlatformEngine
    public let url: URL
    public let sender: String
    public let viewer: String
    public let admin: String
    public let applicationKey: String
    private let task: Task<Void, any Error>
    public let server: HeraldServer
    private let postgres: Bool

    public init(options: ServerOptions = ServerOptions(host: "127.0.0.1", port: 0), timeScale: Double = 50,
                store: TestEngineStore = .sqlite) async throws {
        dir = try TempDir("server")
        var config = EngineConfig(timeScale: timeScale)
        config.collectReportsOnRead = false
        let postgresURL = try store.newPostgresDatabase()
        postgres = postgresURL != nil
        engine = try await EngineHarness.open(folder: dir.url, postgresURL: postgresURL, clock: SystemClock(), config: config)
        applicationKey = try await engine.bootstrapSandbox().applicationKey
        sender = try await engine.createServerKey(role: .sender, name: "ana").key
        viewer = try await engine.createServerKey(role: .viewer, name: "support").key
        admin = try await engine.createServerKey(role: .admin, name: "boss").key
        let listening = AsyncStream<String>.makeStream()
        let server = HeraldServer(engine: engine, options: options)
        self.server = server
        task = Task {
            defer { listening.continuation.finish() }
            try await server.run(handleSignals: false) { listening.continuation.yield($0) }
        }
        var iterator = listening.stream.makeAsyncIterator()
        guard let address = await iterator.next(), let url = URL(string: address) else {
            try await task.value        // the reason it never listened
            throw CancellationError()
        }
        self.url = url
    }

    public func stop() {
        task.cancel()
        try? FileManager.default.removeItem(at: folder)
        if postgres { Task { [engine] in await engine.store.close() } }
    }

    public var transport: HTTPTransport { HTTPTransport(baseURL: url) }

    /// A raw request; the answer as it came.
    public func raw(_ method: HTTPMethod, _ path: String, key: String? = nil, body: Data? = nil,
             headers: [String: String] = [:], query: [String: String] = [:]) async throws -> APIResponse {
        var all = headers
        if let key { all["Authorization"] = "App \(key)" }
        if body != nil { all["Content-Type"] = "application/json" }
        return try await transport.send(APIRequest(method: method, path: path, query: query, headers: all, body: body))
    }

    public var port: Int { url.port ?? 0 }

    public func call<E: Endpoint>(_ endpoint: E) async throws -> E.Response {
        try endpoint.decode(try await transport.send(try endpoint.request()))
    }

    /// Sends invitations to `count` numbers with a key; the answer.
    public func invite(_ count: Int, key: String, from start: Int = 0) async throws -> SendInvitationResponse.SendSmsResponse {
        let messageKey = try await engine.credentials(applicationKey: applicationKey)?.messageKey ?? ""
        let body = SendInvitationBody(messageKey: messageKey, sender: "Herald", destinations: (start..<start + count).map {
            SendInvitationBody.Destination(address: "3859812\(String(format: "%05d", $0))")
        })
        return try await call(SendInvitation(secret: key, body: body)).sendSmsResponse
    }
}
