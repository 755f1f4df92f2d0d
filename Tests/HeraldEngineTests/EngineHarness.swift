import Foundation
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

/// A real engine on a SQLite file in a fresh temp folder, driven by a ManualClock.
struct EngineHarness {
    let folder: URL
    let clock: ManualClock
    let engine: PlatformEngine
    let creds: ApplicationCredentials

    var databaseURL: URL { folder.appendingPathComponent("engine.sqlite") }

    static func make(config: EngineConfig = EngineConfig()) async throws -> EngineHarness {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-engine-\(UUID().uuidString)")
        let clock = ManualClock()
        let engine = try PlatformEngine.open(at: folder.appendingPathComponent("engine.sqlite"), clock: clock, config: config)
        let creds = try await engine.bootstrapSandbox()
        return EngineHarness(folder: folder, clock: clock, engine: engine, creds: creds)
    }

    /// The same file opened again (a restart), sharing the clock.
    func reopen(config: EngineConfig = EngineConfig()) throws -> PlatformEngine {
        try PlatformEngine.open(at: databaseURL, clock: clock, config: config)
    }

    /// Sends a typed endpoint through `handle(_:)` and decodes the answer.
    func call<E: Endpoint>(_ endpoint: E, on target: PlatformEngine? = nil) async throws(APIError) -> E.Response {
        let request = try endpoint.request()
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

    func cleanUp() { try? FileManager.default.removeItem(at: folder) }
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
