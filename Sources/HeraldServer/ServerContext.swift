import HeraldEngine
import Hummingbird
import HummingbirdAuth
import NIOCore
import Synchronization

/// The request context of a Herald server: Hummingbird's core context, the connection (whose peer address is what
/// failed authentications and clicks are counted by, and whose closing ends an event stream at once), the caller
/// once the route's authenticator has admitted it, and what the access log learns on the way.
struct ServerContext: AuthRequestContext {
    typealias Source = ApplicationRequestContextSource

    var coreContext: CoreRequestContextStorage
    let channel: any Channel
    /// Set by the route group's authenticator, from the head alone.
    var identity: Caller?
    /// Shared with the exchange middleware, which logs and answers after the route has run.
    let exchange = ExchangeRecord()

    init(source: Source) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's address without its port ("127.0.0.1", "::1"), "unknown" for a socket without one.
    var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}

/// What one request has been found to be as it was handled: the key's name for the access log, and whether its body
/// was read (an unread body is not drained: the connection ends after the answer).
final class ExchangeRecord: Sendable {
    private struct State {
        var keyName: String?
        var bodyRead = false
        var masksNumbers = false
    }

    private let state = Mutex(State())

    var keyName: String? {
        get { state.withLock { $0.keyName } }
        set { state.withLock { $0.keyName = newValue } }
    }

    /// Whether the caller sees numbers masked (a viewer key under `--mask-numbers-for-viewers`): errors too.
    var masksNumbers: Bool {
        get { state.withLock { $0.masksNumbers } }
        set { state.withLock { $0.masksNumbers = newValue } }
    }

    var bodyRead: Bool {
        get { state.withLock { $0.bodyRead } }
        set { state.withLock { $0.bodyRead = newValue } }
    }
}
