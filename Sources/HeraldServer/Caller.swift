import HeraldAPI
import HeraldEngine
import HummingbirdAuth

/// Who is asking, as the route group's authenticator found from the headers before any body was read.
enum Caller: Sendable, RoleProviding {
    /// A server key, with the application it opens.
    case key(ServerKeyHolder)
    /// A user's inbox JWT (a phone's own request); the engine checks it again.
    case userToken
    /// The bare application code, on inbox routes where the operator allowed it.
    case applicationCode
    /// The carrier posting reports with the deployment's token.
    case carrier

    /// What a caller may do; a route group's policy names the one it needs.
    enum Grant: Sendable, Hashable {
        case read, send, admin
    }

    var roles: Set<Grant> {
        switch self {
        case .key(let holder):
            switch holder.key.role {
            case .viewer: [.read]
            case .sender: [.read, .send]
            case .admin: [.read, .send, .admin]
            }
        case .applicationCode: [.read, .send]       // an app's own code reads and marks its users' inbox seen
        case .userToken: [.read]
        case .carrier: []
        }
    }
}
