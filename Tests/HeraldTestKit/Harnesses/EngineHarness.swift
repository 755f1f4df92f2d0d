import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldEnginePostgres

/// A real engine driven by a ManualClock, on the store `store` names: a SQLite file in a fresh temporary folder, or
/// a fresh database of a throwaway PostgreSQL cluster. By default the store `HERALD_TEST_ENGINE_STORE` picks (as
/// `make test` runs the engine suites a second time with `postgres`), so every engine test runs on both stores.
public struct EngineHarness: Sendable {
    public let dir: TempDir
    public var folder: URL { dir.url }
    public let clock: ManualClock
    public let engine: PlatformEngine
    public let creds: ApplicationCredentials
    /// The PostgreSQL database of this harness; nil on SQLite.
    public let postgresURL: String?

    public static func make(store: TestEngineStore = .chosen, config: EngineConfig = EngineConfig(), mailer: (any Mailer)? = nil,
                            clock: ManualClock = ManualClock()) async throws -> EngineHarness {
        let dir = try TempDir("engine")
        let postgresURL = try store.newPostgresDatabase()
        let engine = try await open(folder: dir.url, postgresURL: postgresURL, clock: clock, config: config, mailer: mailer)
        let creds = try await engine.bootstrapSandbox()
        return EngineHarness(dir: dir, clock: clock, engine: engine, creds: creds, postgresURL: postgresURL)
    }

    /// The engine on the harness's store: PostgreSQL at `postgresURL` when given, else `engine.sqlite` in `folder`.
    static func open(folder: URL, postgresURL: String?, clock: any HeraldClock, config: EngineConfig,
                     mailer: (any Mailer)? = nil) async throws -> PlatformEngine {
        if let postgresURL {
            return try PlatformEngine.open(store: try await PostgresEngineStore.open(url: postgresURL, connections: 2),
                                           clock: clock, config: config, mailer: mailer)
        }
        return try PlatformEngine.open(at: folder.appendingPathComponent("engine.sqlite"), clock: clock, config: config, mailer: mailer)
    }

    /// The same database opened again (a restart, or another process), sharing the clock.
    public func reopen(config: EngineConfig = EngineConfig()) async throws -> PlatformEngine {
        try await Self.open(folder: folder, postgresURL: postgresURL, clock: clock, config: config)
    }

    /// Sends a typed endpoint through `handle(_:)` and decodes the answer; `caller` as a server would vouch for it.
    public func call<E: Endpoint>(_ endpoint: E, on target: PlatformEngine? = nil, as caller: APICaller? = nil) async throws(APIError) -> E.Response {
        var request = try endpoint.request()
        request.caller = caller
        let response = await (target ?? engine).handle(request)
        return try endpoint.decode(response)
    }

    /// A raw request with a literal JSON body.
    public func raw(_ method: HTTPMethod, _ path: String, json: String? = nil, auth: String? = nil,
                    query: [String: String] = [:]) async -> APIResponse {
        var headers: [String: String] = [:]
        if let auth { headers["Authorization"] = auth }
        if json != nil { headers["Content-Type"] = "application/json" }
        return await engine.handle(APIRequest(method: method, path: path, query: query, headers: headers,
                                              body: json.map { Data($0.utf8) }))
    }

    public func invite(_ destinations: [SendInvitationBody.Destination], sender: String = "Herald",
                       messageKey: String? = nil) async throws(APIError) -> SendInvitationResponse.SendSmsResponse {
        let body = SendInvitationBody(messageKey: messageKey ?? creds.messageKey, sender: sender, destinations: destinations)
        return try await call(SendInvitation(secret: creds.secret, body: body)).sendSmsResponse
    }

    /// Removes the folder now and closes a PostgreSQL store.
    public func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
        if postgresURL != nil { Task { [engine] in await engine.store.close() } }
    }
}
