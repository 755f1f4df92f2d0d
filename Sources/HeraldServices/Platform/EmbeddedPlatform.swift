import HeraldAPI
import HeraldEngine

/// Hands wire requests to the in-process engine: the same requests and JSON an HTTP
/// transport would carry, without a socket.
public struct EmbeddedTransport: PlatformTransport {
    public let engine: PlatformEngine

    public init(engine: PlatformEngine) { self.engine = engine }

    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        await engine.handle(request)
    }
}

/// The embedded platform: a `PlatformClient` over the in-process engine.
public enum EmbeddedPlatform {
    /// A client of `engine` acting as the application `credentials` names.
    public static func client(engine: PlatformEngine, credentials: PlatformCredentials) -> PlatformClient {
        PlatformClient(credentials: credentials, transport: EmbeddedTransport(engine: engine))
    }

    /// A client of the engine's sandbox application (created on first use).
    public static func sandboxClient(engine: PlatformEngine) async throws -> PlatformClient {
        let app = try await engine.bootstrapSandbox()
        return client(engine: engine, credentials: PlatformCredentials(
            applicationKey: app.applicationKey, applicationSecret: app.secret, applicationCode: app.applicationCode))
    }
}
