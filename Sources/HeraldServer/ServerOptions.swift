import Foundation
import HeraldAPI

/// How a Herald server runs.
public struct ServerOptions: Sendable {
    public var host: String
    /// 0 picks a free port (the one taken is printed).
    public var port: Int
    /// The largest request body taken; larger ones are answered 413.
    public var maxBodyBytes: Int
    /// Seconds between heartbeat comments on an idle event stream.
    public var heartbeat: TimeInterval
    /// Seconds between looks at the events table when no commit of this process rang (writes of other processes).
    public var eventPoll: TimeInterval
    /// Frames an event-stream subscriber may fall behind before it is dropped.
    public var subscriberBuffer: Int
    /// The messaging feature version announced at `/1/features` (2: server-sent events; 1: short-poll only).
    public var messagingVersion: Int
    /// Longest sleep of the carrier worker between passes.
    public var carrierInterval: TimeInterval
    /// Seconds events are kept for subscribers that come back.
    public var eventRetention: TimeInterval
    /// Seconds between asks for the carrier lease by a replica that does not hold it.
    public var leaseRetry: TimeInterval

    /// The Herald this server runs, told at `/health` and in each session (the executable fills in its commit).
    public var build = HeraldBuild()
    /// How an inbox may be opened besides a user's JWT and a server key.
    public var inboxAuth: InboxAuthPolicy = .tokenOrKey
    /// Connections open at once; one more is answered 503 and closed.
    public var maxConnections = 4096
    /// Connections one client (an IPv4 address, an IPv6 /64) may hold at once; one more is answered 429 and closed.
    /// nil: a quarter of `maxConnections`, so one address never takes every slot.
    public var maxConnectionsPerAddress: Int?
    /// Seconds a client has to send a whole request head: from the connection's start for its first request, from
    /// the first byte of each later one. More bytes of the same head do not extend it.
    public var headerTimeout: TimeInterval = 10
    /// Seconds a kept-alive connection may wait for its next request.
    public var idleTimeout: TimeInterval = 15
    /// Event streams one key may hold open at once; one more is answered 429.
    public var maxStreamsPerKey = 64
    /// Bytes of event frames the server keeps in memory for its subscribers (besides `subscriberBuffer` per
    /// subscriber); the oldest go first, and a subscriber that needs them reads them from the database.
    public var eventCacheBytes = 64 << 20
    /// Seconds a client has to send a whole body once its key was accepted.
    public var bodyTimeout: TimeInterval = 30
    /// Failed authentications one client address may make a minute before it is answered 429.
    public var authFailuresPerMinute = 30
    /// Short-link openings counted per client address a minute (more are answered 429).
    public var clicksPerMinute = 120
    /// The role a key must have to read `/metrics`; nil: no key needed.
    public var metricsRole: KeyRole?
    /// The connections one client may hold: `maxConnectionsPerAddress`, else a quarter of the cap.
    public var connectionsPerAddress: Int { min(maxConnections, max(1, maxConnectionsPerAddress ?? maxConnections / 4)) }
    /// The certificate and key files to serve HTTPS with; nil: plain HTTP.
    public var tls: ServerTLSFiles?
    /// Seconds a graceful shutdown may take (requests in flight finishing) before it is cut short; see `ServerShutdown`.
    public var shutdownGrace: TimeInterval = 5
    /// Whether viewer keys see phone numbers and email addresses masked (`+385 98 ••• 4567`, `a•••@example.com`) in
    /// every answer, error and event; sender and admin keys see them whole (`--mask-numbers-for-viewers`).
    public var maskNumbersForViewers = false
    /// Names this replica on every log line.
    public var replicaId = ProcessInfo.processInfo.hostName

    public init(host: String = "127.0.0.1", port: Int = 8080, maxBodyBytes: Int = 1 << 20, heartbeat: TimeInterval = 15,
                eventPoll: TimeInterval = 1, subscriberBuffer: Int = 1000, messagingVersion: Int = 2,
                carrierInterval: TimeInterval = 0.25, eventRetention: TimeInterval = 7 * 24 * 3600, leaseRetry: TimeInterval = 1) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.heartbeat = heartbeat
        self.eventPoll = eventPoll
        self.subscriberBuffer = subscriberBuffer
        self.messagingVersion = messagingVersion
        self.carrierInterval = carrierInterval
        self.eventRetention = eventRetention
        self.leaseRetry = leaseRetry
    }
}

extension ServerOptions {
    /// Whether a key of `role` sees numbers and addresses masked.
    public func masksNumbers(for role: KeyRole) -> Bool { maskNumbersForViewers && role == .viewer }
}

/// Who may open an inbox on a server besides a server key.
public enum InboxAuthPolicy: String, Sendable, CaseIterable {
    /// A user's JWT (signed with one of the application's keys) or a server key: the default.
    case tokenOrKey = "token"
    /// Also the bare application code, which reads any user's inbox and cannot be revoked: only when the operator
    /// chose it (`--inbox-auth app-code`).
    case appCode = "app-code"
}

/// A PEM certificate chain and its private key, read at start and again on SIGHUP.
public struct ServerTLSFiles: Sendable, Hashable {
    public var certificatePath: String
    public var keyPath: String
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }
}
