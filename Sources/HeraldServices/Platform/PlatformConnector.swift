import Foundation
import HeraldAPI
import HeraldCore

/// Which platform a workspace talks to.
public enum PlatformKind: Sendable, Hashable, CustomStringConvertible {
    /// The engine in this process, on the data folder's own SQLite file, with a simulated carrier.
    case embedded
    /// A Herald server (`herald serve`) at this base URL.
    case server(URL)
    /// The engine in this process sending through an Infobip account (this SMS API base URL); the inbox is
    /// Infobip Mobile Messaging's.
    case infobip(URL)

    /// Whether a held send leaves only while a Herald process runs on this data folder: the embedded engine holds it.
    /// A Herald server, and Infobip (`sendAt`), hold it themselves and let it leave on time.
    public var holdsSendsInProcess: Bool {
        if case .embedded = self { return true }
        return false
    }

    /// Who lets a held send leave at its time, for people ("the server", "Infobip").
    public var holder: String {
        switch self {
        case .embedded: return "Herald"
        case .server: return "the server"
        case .infobip: return "Infobip"
        }
    }

    /// How often a shown inbox is read again. The embedded engine's inbox is a read of a local file: every second, so a
    /// message another process pushed shows at once. A server also tells of new messages on its event stream, and
    /// Infobip's inbox is a call over the network counted against the account: every 30 seconds.
    public var inboxRefreshInterval: TimeInterval {
        if case .embedded = self { return 1 }
        return 30
    }

    public var description: String {
        switch self {
        case .embedded: return "embedded"
        case .server(let url): return "server \(url.absoluteString)"
        case .infobip(let url): return "Infobip \(url.absoluteString)"
        }
    }

    /// A few words for the status bar ("embedded", "server herald.example:8080").
    public var shortName: String {
        switch self {
        case .embedded: return "embedded"
        case .server(let url): return "server \(url.host ?? url.absoluteString)\(url.port.map { ":\($0)" } ?? "")"
        case .infobip(let url): return "infobip \(url.host ?? url.absoluteString)"
        }
    }
}

/// A platform ready to use: how requests reach it and as which application.
public struct PlatformConnection: Sendable {
    public var kind: PlatformKind
    public var transport: any PlatformTransport
    public var credentials: PlatformCredentials
    /// Operator actions that only a platform run by this process allows (the demo's inbox, pushing a message).
    public var sandbox: (any SandboxOperator)?
    /// What the platform tells about itself as it happens (a server's event stream); nil when the client polls.
    public var events: (any PlatformEventSource)?
    /// A link of the form the platform gives each invitation (an example code in place of each one's own); nil when it
    /// cannot be told (a server not reached yet).
    public var linkExample: String?
    /// Why this connection may read but not send (a viewer's key on a Herald server); nil when it may send.
    public var readOnlyReason: String?

    public init(kind: PlatformKind, transport: any PlatformTransport, credentials: PlatformCredentials,
                sandbox: (any SandboxOperator)? = nil, events: (any PlatformEventSource)? = nil, linkExample: String? = nil,
                readOnlyReason: String? = nil) {
        self.linkExample = linkExample
        self.readOnlyReason = readOnlyReason
        self.kind = kind
        self.transport = transport
        self.credentials = credentials
        self.sandbox = sandbox
        self.events = events
    }
}

/// Where the platform is and how to reach it. The executable picks one (embedded engine, a Herald server,
/// Infobip) and hands it to `Workspace.open`; Services never knows which.
public protocol PlatformConnector: Sendable {
    /// Connects for the workspace in `dataDirectory`; `saved` keeps credentials between runs.
    func connect(dataDirectory: URL, saved: SavedCredentials, clock: any HeraldClock) async throws -> PlatformConnection
}

/// The operator's side of a platform this process runs itself.
public protocol SandboxOperator: Sendable {
    /// Fills a user's inbox with demo messages unless it has some; how many were added.
    func seedDemoInbox(user: String) async throws -> Int
    /// Puts a message in a user's inbox.
    func pushInbox(user: String, topic: String?, title: String?, body: String) async throws -> InboxMessage
    /// An SMS reply the simulated carrier receives from `from`; a stop word opts the number out (nil: it did not say stop).
    func receiveReply(from: String, text: String) async throws -> OptOut?
}

/// The application credentials a workspace keeps in its local settings.
public struct SavedCredentials: Sendable {
    let load: @Sendable () throws -> PlatformCredentials?
    let save: @Sendable (PlatformCredentials) throws -> Void

    public init(load: @escaping @Sendable () throws -> PlatformCredentials?,
                save: @escaping @Sendable (PlatformCredentials) throws -> Void) {
        self.load = load
        self.save = save
    }

    public func credentials() throws -> PlatformCredentials? { try load() }
    public func keep(_ credentials: PlatformCredentials) throws { try save(credentials) }
}
