import Foundation
import HeraldCore

/// One inbox message as the Mobile Messaging inbox writes it: an APNs-shaped payload
/// (`aps.alert.title/body`, `internalData.sendDateTime`, `internalData.inbox.topic/seen`).
///
/// Read as Infobip really writes it: `internalData.inbox.seen` may be absent (not seen); a silent message has no
/// `aps.alert` and carries its title and body in `internalData.silent`; `aps.alert` may be a bare string; unknown
/// fields are ignored. Written the same way (with the top-level `silent` flag of docs/wire-protocols.md), so the
/// embedded engine and `herald serve` answer what Infobip does.
public struct InboxWireMessage: Codable, Sendable, Hashable {
    public var messageId: String
    public var silent: Bool
    public var title: String?
    public var body: String
    public var topic: String?
    /// Epoch milliseconds.
    public var sendDateTime: Int64
    public var seen: Bool

    public init(messageId: String, title: String?, body: String, topic: String?, sendDateTime: Int64, seen: Bool,
                silent: Bool = false) {
        self.messageId = messageId
        self.silent = silent
        self.title = title
        self.body = body
        self.topic = topic
        self.sendDateTime = sendDateTime
        self.seen = seen
    }

    enum Keys: String, CodingKey { case messageId, silent, aps, internalData }
    enum APSKeys: String, CodingKey { case alert }
    enum AlertKeys: String, CodingKey { case title, body }
    enum SilentKeys: String, CodingKey { case title, body, alert }
    enum InternalKeys: String, CodingKey { case sendDateTime, inbox, silent }
    enum InboxKeys: String, CodingKey { case topic, seen }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        messageId = try c.decode(String.self, forKey: .messageId)
        var alertTitle: String?
        var alertBody: String?
        var hasAlert = false
        if c.contains(.aps), try !c.decodeNil(forKey: .aps) {
            let aps = try c.nestedContainer(keyedBy: APSKeys.self, forKey: .aps)
            if let text = try? aps.decode(String.self, forKey: .alert) {
                alertBody = text
                hasAlert = true
            } else if aps.contains(.alert), try !aps.decodeNil(forKey: .alert) {
                let alert = try aps.nestedContainer(keyedBy: AlertKeys.self, forKey: .alert)
                alertTitle = try alert.decodeIfPresent(String.self, forKey: .title)
                alertBody = try alert.decodeIfPresent(String.self, forKey: .body)
                hasAlert = true
            }
        }
        var silentTitle: String?
        var silentBody: String?
        var hasSilent = false
        sendDateTime = 0
        seen = false
        topic = nil
        if c.contains(.internalData), try !c.decodeNil(forKey: .internalData) {
            let data = try c.nestedContainer(keyedBy: InternalKeys.self, forKey: .internalData)
            sendDateTime = try Self.decodeMilliseconds(data, .sendDateTime) ?? 0
            if data.contains(.inbox), try !data.decodeNil(forKey: .inbox) {
                let inbox = try data.nestedContainer(keyedBy: InboxKeys.self, forKey: .inbox)
                topic = try inbox.decodeIfPresent(String.self, forKey: .topic)
                seen = try inbox.decodeIfPresent(Bool.self, forKey: .seen) ?? false
            }
            if data.contains(.silent), try !data.decodeNil(forKey: .silent) {
                // The text sits in `silent` itself, or under `silent.alert` (both are seen in real payloads).
                let silent = try data.nestedContainer(keyedBy: SilentKeys.self, forKey: .silent)
                silentTitle = try silent.decodeIfPresent(String.self, forKey: .title)
                silentBody = try silent.decodeIfPresent(String.self, forKey: .body)
                if silent.contains(.alert), try !silent.decodeNil(forKey: .alert),
                   let alert = try? silent.nestedContainer(keyedBy: AlertKeys.self, forKey: .alert) {
                    silentTitle = try silentTitle ?? alert.decodeIfPresent(String.self, forKey: .title)
                    silentBody = try silentBody ?? alert.decodeIfPresent(String.self, forKey: .body)
                }
                hasSilent = true
            }
        }
        silent = try c.decodeIfPresent(Bool.self, forKey: .silent) ?? (!hasAlert && hasSilent)
        title = alertTitle ?? silentTitle
        body = alertBody ?? silentBody ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(messageId, forKey: .messageId)
        try c.encode(silent, forKey: .silent)
        var aps = c.nestedContainer(keyedBy: APSKeys.self, forKey: .aps)
        var data = c.nestedContainer(keyedBy: InternalKeys.self, forKey: .internalData)
        try data.encode(sendDateTime, forKey: .sendDateTime)
        var inbox = data.nestedContainer(keyedBy: InboxKeys.self, forKey: .inbox)
        try inbox.encodeIfPresent(topic, forKey: .topic)
        try inbox.encode(seen, forKey: .seen)
        if silent {
            var payload = data.nestedContainer(keyedBy: AlertKeys.self, forKey: .silent)
            try payload.encodeIfPresent(title, forKey: .title)
            try payload.encode(body, forKey: .body)
        } else {
            var alert = aps.nestedContainer(keyedBy: AlertKeys.self, forKey: .alert)
            try alert.encodeIfPresent(title, forKey: .title)
            try alert.encode(body, forKey: .body)
        }
    }

    /// Epoch milliseconds written as a number (integer or not) or a numeric string.
    private static func decodeMilliseconds(_ c: KeyedDecodingContainer<InternalKeys>, _ key: InternalKeys) throws -> Int64? {
        if let ms = try? c.decodeIfPresent(Int64.self, forKey: key) { return ms }
        if let ms = try? c.decodeIfPresent(Double.self, forKey: key), let whole = Int64(exactly: ms.rounded(.towardZero)) { return whole }
        if let text = try? c.decodeIfPresent(String.self, forKey: key), let ms = Int64(text) { return ms }
        return nil
    }

    public var sendDate: Date { Date(epochMilliseconds: sendDateTime) }

    /// The wire form of a domain inbox message.
    public init(_ message: InboxMessage) {
        self.init(messageId: message.messageId, title: message.title, body: message.body, topic: message.topic,
                  sendDateTime: message.sendDateTime.epochMilliseconds, seen: message.seen, silent: message.silent)
    }

    /// The domain inbox message this wire message carries.
    public var inboxMessage: InboxMessage {
        InboxMessage(messageId: messageId, title: title, body: body, topic: topic, sendDateTime: sendDate,
                     seen: seen, silent: silent)
    }
}

/// Answer of the inbox fetch: counts over the whole inbox and over the filter, messages newest first.
public struct InboxResponse: Codable, Sendable, Hashable {
    public var countTotal: Int
    public var countUnread: Int
    public var countTotalFiltered: Int?
    public var countUnreadFiltered: Int?
    public var messages: [InboxWireMessage]

    public init(countTotal: Int, countUnread: Int, countTotalFiltered: Int?, countUnreadFiltered: Int?,
                messages: [InboxWireMessage]) {
        self.countTotal = countTotal
        self.countUnread = countUnread
        self.countTotalFiltered = countTotalFiltered
        self.countUnreadFiltered = countUnreadFiltered
        self.messages = messages
    }

    /// The counters as HeraldCore counts them (filtered counts fall back on the totals when absent).
    public var counts: InboxCounts {
        InboxCounts(total: countTotal, unread: countUnread, totalFiltered: countTotalFiltered ?? countTotal,
                    unreadFiltered: countUnreadFiltered ?? countUnread)
    }

    /// The messages as HeraldCore values, in the order received (newest first).
    public var inboxMessages: [InboxMessage] { messages.map(\.inboxMessage) }
}

/// `GET /mobile/1/user/{externalUserId}/inbox/apns/messages` with `Bearer <jwt>` or `App <application code>`.
/// `from` is inclusive, `to` exclusive; both travel as epoch milliseconds. Page by asking again with
/// `to` = the oldest `sendDateTime` seen.
public struct FetchInbox: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = InboxResponse
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/mobile/1/user/{externalUserId}/inbox/apns/messages"
    public static let defaultLimit = 20

    public var credential: Credential
    /// Case-sensitive; any character (it is percent-encoded in the path).
    public var externalUserId: String
    public var topic: String?
    public var from: Date?
    public var to: Date?
    public var limit: Int?

    public init(credential: Credential, externalUserId: String, topic: String? = nil, from: Date? = nil,
                to: Date? = nil, limit: Int? = nil) {
        self.credential = credential
        self.externalUserId = externalUserId
        self.topic = topic
        self.from = from
        self.to = to
        self.limit = limit
    }

    /// The fetch for a HeraldCore filter.
    public init(credential: Credential, externalUserId: String, filter: InboxFilter) {
        self.init(credential: credential, externalUserId: externalUserId, topic: filter.topic, from: filter.from,
                  to: filter.to, limit: filter.limit)
    }

    public var pathParameters: [String: String] { ["externalUserId": externalUserId] }
    public var body: EmptyBody? { nil }

    public var query: [String: String] {
        var q: [String: String] = [:]
        if let topic { q["messageTopic"] = topic }
        if let from { q["dateTimeFrom"] = String(from.epochMilliseconds) }
        if let to { q["dateTimeTo"] = String(to.epochMilliseconds) }
        if let limit { q["limit"] = String(limit) }
        return q
    }
}

/// Body of `POST /mobile/2/messages/seen`.
public struct SeenBody: Codable, Sendable, Hashable {
    public var externalUserId: String
    public var messages: [SeenMessage]

    public init(externalUserId: String, messages: [SeenMessage]) {
        self.externalUserId = externalUserId
        self.messages = messages
    }

    public struct SeenMessage: Codable, Sendable, Hashable {
        public var messageId: String
        /// Whole seconds between seeing the message and reporting it (about 0 when reported at once), as the
        /// Mobile Messaging SDKs send it; the platform takes the seen time as its arrival minus this.
        public var timestampDelta: Int64
        public var inbox: Bool

        public init(messageId: String, timestampDelta: Int64, inbox: Bool = true) {
            self.messageId = messageId
            self.timestampDelta = timestampDelta
            self.inbox = inbox
        }

        /// The mark of a message seen at `seenAt`, reported at `reportedAt` (never negative, even when clocks disagree).
        public init(messageId: String, seenAt: Date, reportedAt: Date) {
            self.init(messageId: messageId, timestampDelta: max(0, Int64(reportedAt.timeIntervalSince(seenAt).rounded(.down))))
        }
    }
}

/// `POST /mobile/2/messages/seen`, always `App <application code>`; empty answer.
public struct MarkInboxSeen: Endpoint {
    public typealias Response = EmptyResponse
    public static let method = HTTPMethod.post
    public static let path: PathTemplate = "/mobile/2/messages/seen"

    public var applicationCode: String
    public var payload: SeenBody

    public init(applicationCode: String, body: SeenBody) {
        self.applicationCode = applicationCode
        self.payload = body
    }

    public var credential: Credential { .app(applicationCode) }
    public var body: SeenBody? { payload }
}
