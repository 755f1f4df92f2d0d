import Hummingbird
import NIOCore

/// The request context of a Herald server: Hummingbird's core context plus the connection, whose peer address is
/// what failed authentications and clicks are counted by, and whose closing ends an event stream at once.
struct ServerContext: RequestContext {
    typealias Source = ApplicationRequestContextSource

    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: Source) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's address without its port ("127.0.0.1", "::1"), "unknown" for a socket without one.
    var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}
