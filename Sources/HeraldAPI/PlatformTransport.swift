import Foundation

/// Carries one wire request to the platform and brings back its answer.
/// Non-2xx answers are returned, not thrown: only a failure to get any answer throws
/// (`APIError.transport` or `.timeout`).
public protocol PlatformTransport: Sendable {
    func send(_ request: APIRequest) async throws(APIError) -> APIResponse
}

/// How a client's link to its platform stands.
public enum PlatformLinkState: Sendable, Hashable {
    case connected
    /// Lost; the next attempt is in `retryIn` seconds.
    case reconnecting(retryIn: Double, reason: String)
    /// Cannot be reached at all (the reason says why).
    case offline(reason: String)
}

/// One thing a platform's event stream says.
public enum PlatformStreamUpdate: Sendable, Hashable {
    /// An event and its id in the platform's stream (nil when the platform numbers none).
    case event(PlatformEvent, id: Int64?)
    case link(PlatformLinkState)
    /// Events were missed for good (the server no longer keeps them): read everything again.
    case reset
}

/// A platform that tells what happens as it happens (a Herald server's event stream).
public protocol PlatformEventSource: Sendable {
    /// Follows the events after `lastEventId` (nil: from the oldest the platform keeps) until the task is
    /// cancelled, reconnecting as needed, handing each update to `handle`.
    func follow(after lastEventId: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async
}
