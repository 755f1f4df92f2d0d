import HeraldAPI
import HeraldEngine
import HeraldServices

/// Hands wire requests to the in-process engine: the same requests and JSON an HTTP
/// transport would carry, without a socket.
public struct EmbeddedTransport: PlatformTransport {
    public let engine: PlatformEngine

    public init(engine: PlatformEngine) { self.engine = engine }

    public func send(_ request: APIRequest) async throws(APIError) -> APIResponse {
        await engine.handle(request)
    }
}
