import HeraldAPI

/// Carries one wire request to the platform and brings back its answer.
/// Non-2xx answers are returned, not thrown: only a failure to get any answer throws
/// (`APIError.transport` or `.timeout`).
public protocol PlatformTransport: Sendable {
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse
}
