import Foundation

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
