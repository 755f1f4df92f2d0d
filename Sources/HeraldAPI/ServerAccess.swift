import Foundation

/// What a Herald server key may do.
public enum KeyRole: String, Codable, Sendable, Hashable, CaseIterable {
    /// Everything, application settings included.
    case admin
    /// Sends, resends and edits messages; reads everything.
    case sender
    /// Support staff: reads everything of the application and watches its events; sends nothing, changes nothing.
    case viewer

    /// Whether the role may send invitations and edit messages.
    public var maySend: Bool { self != .viewer }
}

/// `GET /herald/1/session`: who a server key is (a terminal learns its application here).
public struct ServerSession: Codable, Sendable, Hashable {
    public var applicationKey: String
    public var role: KeyRole
    public var name: String
    public var keyId: String
    /// A link as this server makes them for invitations (its public URL's short-link form, with an example code):
    /// what previews show. Absent from servers that predate it.
    public var linkExample: String?
    /// The Herald release the server runs, and the wire it speaks (`HeraldVersion`); absent from servers before wire 1.
    public var version: String?
    public var wire: Int?

    public init(applicationKey: String, role: KeyRole, name: String, keyId: String, linkExample: String? = nil,
                version: String? = nil, wire: Int? = nil) {
        self.applicationKey = applicationKey
        self.role = role
        self.name = name
        self.keyId = keyId
        self.linkExample = linkExample
        self.version = version
        self.wire = wire
    }
}

public struct GetServerSession: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ServerSession
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/herald/1/session"

    public var key: String
    public init(key: String) { self.key = key }

    public var credential: Credential { .app(key) }
    public var body: EmptyBody? { nil }
}

/// `GET /1/features`: the feature versions a server speaks (the ICWS pattern: messaging ≥ 2 means server-sent
/// events at `/1/events`; below, short-poll `/1/messaging/messages`).
public struct ServerFeatures: Codable, Sendable, Hashable {
    public var features: [String: Int]

    public init(features: [String: Int]) { self.features = features }

    public var messaging: Int { features["messaging"] ?? 0 }
}

public struct GetServerFeatures: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ServerFeatures
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/features"

    /// Sent along; the server answers this without one.
    public var key: String
    public init(key: String) { self.key = key }

    public var credential: Credential { .app(key) }
    public var body: EmptyBody? { nil }
}

/// `GET /1/messaging/messages?after=N`: the short-poll fallback of the event stream, the same events in order.
public struct EventQueueResponse: Codable, Sendable, Hashable {
    /// Events as `{"id": N, "event": {...}}`.
    public var messages: [QueuedEvent]
    /// The id to ask after next time.
    public var lastEventId: Int64
    /// True when `after` was older than the oldest event kept: reload everything, then follow from `lastEventId`.
    public var reset: Bool

    public struct QueuedEvent: Codable, Sendable, Hashable {
        public var id: Int64
        public var event: PlatformEvent

        public init(id: Int64, event: PlatformEvent) {
            self.id = id
            self.event = event
        }
    }

    public init(messages: [QueuedEvent], lastEventId: Int64, reset: Bool) {
        self.messages = messages
        self.lastEventId = lastEventId
        self.reset = reset
    }
}

public struct GetEventQueue: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = EventQueueResponse
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/messaging/messages"

    public var key: String
    /// Nil on the first call: the answer says where the queue stands (`reset`), with no events.
    public var after: Int64?

    public init(key: String, after: Int64?) {
        self.key = key
        self.after = after
    }

    public var credential: Credential { .app(key) }
    public var query: [String: String] { after.map { ["after": String($0)] } ?? [:] }
    public var body: EmptyBody? { nil }
}
