import Foundation
import HeraldAPI
import HeraldCore
@testable import HeraldEngine
import HeraldEnginePostgres
import PostgresTestCluster

/// A real engine driven by a ManualClock: on a SQLite file in a fresh temp folder, or, when the suite runs with
/// `HERALD_TEST_ENGINE_STORE=postgres` (as `make test` runs it a second time), on a fresh database of a throwaway
/// PostgreSQL cluster. Every engine test runs on both stores.
struct EngineHarness {
    let folder: URL
    let clock: ManualClock
    let engine: PlatformEngine
    let creds: ApplicationCredentials
    /// The PostgreSQL database of this harness; nil on SQLite.
    let postgresURL: String?

    static func make(config: EngineConfig = EngineConfig(), mailer: (any Mailer)? = nil,
                     clock: ManualClock = ManualClock()) async throws -> EngineHarness {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-engine-\(UUID().uuidString)")
        let postgresURL = try TestStores.newPostgresDatabase()
        let engine = try await open(folder: folder, postgresURL: postgresURL, clock: clock, config: config, mailer: mailer)
        let creds = try await engine.bootstrapSandbox()
        return EngineHarness(folder: folder, clock: clock, engine: engine, creds: creds, postgresURL: postgresURL)
    }

    private static func open(folder: URL, postgresURL: String?, clock: ManualClock, config: EngineConfig,
                             mailer: (any Mailer)? = nil) async throws -> PlatformEngine {
        if let postgresURL {
            return try PlatformEngine.open(store: try await PostgresEngineStore.open(url: postgresURL, connections: 2),
                                           clock: clock, config: config, mailer: mailer)
        }
        return try PlatformEngine.open(at: folder.appendingPathComponent("engine.sqlite"), clock: clock, config: config, mailer: mailer)
    }

    /// The same database opened again (a restart, or another process), sharing the clock.
    func reopen(config: EngineConfig = EngineConfig()) async throws -> PlatformEngine {
        try await Self.open(folder: folder, postgresURL: postgresURL, clock: clock, config: config)
    }

    /// Sends a typed endpoint through `handle(_:)` and decodes the answer; `caller` as a server would vouch for it.
    func call<E: Endpoint>(_ endpoint: E, on target: PlatformEngine? = nil, as caller: APICaller? = nil) async throws(APIError) -> E.Response {
        var request = try endpoint.request()
        request.caller = caller
        let response = await (target ?? engine).handle(request)
        return try endpoint.decode(response)
    }

    /// A raw request with a literal JSON body.
    func raw(_ method: HTTPMethod, _ path: String, json: String? = nil, auth: String? = nil,
             query: [String: String] = [:]) async -> APIResponse {
        var headers: [String: String] = [:]
        if let auth { headers["Authorization"] = auth }
        if json != nil { headers["Content-Type"] = "application/json" }
        return await engine.handle(APIRequest(method: method, path: path, query: query, headers: headers,
                                              body: json.map { Data($0.utf8) }))
    }

    func invite(_ destinations: [SendInvitationBody.Destination], sender: String = "Herald",
                messageKey: String? = nil) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: messageKey ?? creds.messageKey, sender: sender, destinations: destinations)
        return try await call(SendInvitation(secret: creds.secret, body: body)).sendSmsResponse
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
        if postgresURL != nil { Task { [engine] in await engine.store.close() } }
    }
}

/// Parses a JSON body into a plain object for literal checks.
func jsonObject(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

/// The error an answer stands for, nil when it is a success.
func apiError(_ response: APIResponse) -> APIError? {
    response.isSuccess ? nil : APIError(response: response)
}

/// Numbers libphonenumber 8.12 classifies as seen on this machine kind.
enum Numbers {
    static let croatianMobile = "385981234567"
    static let croatianMobile2 = "385911234567"
    static let dutchMobile = "31612345678"
    static let usFixedOrMobile = "12015550123"
}

/// The store the engine tests run on, chosen by `HERALD_TEST_ENGINE_STORE` (`sqlite`, the default, or `postgres`).
enum TestStores {
    static let usePostgres = ProcessInfo.processInfo.environment["HERALD_TEST_ENGINE_STORE"] == "postgres"

    /// One cluster for the whole test process, started on first use and removed when the process exits.
    private static let cluster: Result<PostgresTestCluster, any Error> = {
        do {
            let cluster = try PostgresTestCluster.start()
            TestStoresExit.cluster = cluster
            atexit { TestStoresExit.cluster?.stop() }
            return .success(cluster)
        } catch {
            return .failure(error)
        }
    }()

    private static let counter = LockedCounter()

    /// A fresh database when the tests run on PostgreSQL; nil on SQLite.
    static func newPostgresDatabase() throws -> String? {
        guard usePostgres else { return nil }
        return try cluster.get().createDatabase("engine_\(counter.next())")
    }

}

/// A count shared between tasks.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    /// Adds one; answers the new count.
    @discardableResult
    func next() -> Int { lock.withLock { value += 1; return value } }
}

/// The cluster `atexit` stops (a C callback cannot capture it).
enum TestStoresExit {
    nonisolated(unsafe) static var cluster: PostgresTestCluster?
}
