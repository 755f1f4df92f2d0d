import Foundation
import HeraldCore

/// One inbox message as the Mobile Messaging inbox writes it (HeraldCore's `InboxMessage` on the wire).
public struct InboxWireMessage: Codable, Sendable, Hashable {
    public var messageId: String
    public var silent: Bool
    public var aps: APS
    public var internalData: InternalData

    public init(messageId: String, title: String?, body: String, topic: String?, sendDateTime: Int64, seen: Bool,
                silent: Bool = false) {
        self.messageId = messageId
        self.silent = silent
        self.aps = APS(alert: APS.Alert(title: title, body: body))
        self.internalData = InternalData(sendDateTime: sendDateTime, inbox: InternalData.Inbox(seen: seen, topic: topic))
    }

    public struct APS: Codable, Sendable, Hashable {
        public var alert: Alert
        public init(alert: Alert) { self.alert = alert }

        public struct Alert: Codable, Sendable, Hashable {
            public var title: String?
            public var body: String
            public init(title: String?, body: String) {
                self.title = title
                self.body = body
            }
        }
    }

    public struct InternalData: Codable, Sendable, Hashable {
        /// Epoch milliseconds.
        public var sendDateTime: Int64
        public var inbox: Inbox
        public init(sendDateTime: Int64, inbox: Inbox) {
            self.sendDateTime = sendDateTime
            self.inbox = inbox
        }

        public struct Inbox: Codable, Sendable, Hashable {
            public var seen: Bool
            public var topic: String?
            public init(seen: Bool, topic: String?) {
                self.seen = seen
                self.topic = topic
            }
        }
    }

    public var title: String? { aps.alert.title }
    public var body: String { aps.alert.body }
    public var topic: String? { internalData.inbox.topic }
    public var seen: Bool { internalData.inbox.seen }
    public var sendDate: Date { Date(epochMilliseconds: internalData.sendDateTime) }

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
        /// Whole seconds between sending and seeing.
        public var timestampDelta: Int64
        public var inbox: Bool

        public init(messageId: String, timestampDelta: Int64, inbox: Bool = true) {
            self.messageId = messageId
            self.timestampDelta = timestampDelta
            self.inbox = inbox
        }

        /// The seen mark of a message sent at `sent` and seen at `seen`.
        public init(messageId: String, sent: Date, seen: Date) {
            self.init(messageId: messageId, timestampDelta: max(0, Int64(seen.timeIntervalSince(sent))))
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
