import Foundation
import HeraldCore

/// A reply as the platform keeps it: an SMS a person sent back. Numbers are E.164 without the plus.
public struct ReplyWire: Codable, Sendable, Hashable {
    /// The carrier's id of the reply (Infobip's `messageId`): the key, a reply is stored once.
    public var messageId: String
    /// Who sent it.
    public var from: String
    /// The number it was sent to (the account's number or the sender), when the carrier says.
    public var to: String?
    public var text: String
    /// When it arrived (`WireTime`).
    public var receivedAt: String
    /// What the carrier charged for it, when it says.
    public var price: Double?
    public var currency: String?
    /// Whether someone marked it seen.
    public var seen: Bool
    /// The bulk of the latest invitation sent to `from` before the reply arrived (the thread it answers).
    public var bulkId: String?
    /// The messageId of that invitation.
    public var invitationMessageId: String?
    /// It said stop and opted the number out.
    public var optedOut: Bool

    public init(messageId: String, from: String, to: String?, text: String, receivedAt: String, price: Double? = nil,
                currency: String? = nil, seen: Bool = false, bulkId: String? = nil, invitationMessageId: String? = nil,
                optedOut: Bool = false) {
        self.messageId = messageId
        self.from = from
        self.to = to
        self.text = text
        self.receivedAt = receivedAt
        self.price = price
        self.currency = currency
        self.seen = seen
        self.bulkId = bulkId
        self.invitationMessageId = invitationMessageId
        self.optedOut = optedOut
    }
}

/// One number's conversation in a list: its latest message and how many replies are unread.
public struct ConversationSummary: Codable, Sendable, Hashable {
    /// E.164 without the plus.
    public var number: String
    /// When the latest message (reply or sent) was (`WireTime`).
    public var lastAt: String
    /// The latest message's text.
    public var lastText: String
    /// Whether the latest message is a reply (false: one the platform sent).
    public var lastIsReply: Bool
    /// Replies not marked seen.
    public var unread: Int
    /// Replies kept.
    public var replies: Int
    /// Messages sent to the number.
    public var sent: Int

    public init(number: String, lastAt: String, lastText: String, lastIsReply: Bool, unread: Int, replies: Int, sent: Int) {
        self.number = number
        self.lastAt = lastAt
        self.lastText = lastText
        self.lastIsReply = lastIsReply
        self.unread = unread
        self.replies = replies
        self.sent = sent
    }
}

/// The answer of `GET /1/social-invite/conversations`: conversations newest first.
public struct ConversationList: Codable, Sendable, Hashable {
    public var conversations: [ConversationSummary]
    /// Unread replies of the whole application (not only this page).
    public var unreadTotal: Int
    /// Whether older conversations match (ask again with `before` = the last one's `lastAt`).
    public var hasMore: Bool

    public init(conversations: [ConversationSummary], unreadTotal: Int, hasMore: Bool) {
        self.conversations = conversations
        self.unreadTotal = unreadTotal
        self.hasMore = hasMore
    }
}

/// One message of a conversation: a reply, or a message the platform sent to the number.
public struct ThreadEntry: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable { case reply, sent }

    public var kind: Kind
    public var messageId: String
    /// When it arrived (a reply) or was accepted (sent) (`WireTime`).
    public var at: String
    public var text: String
    /// The bulk: a sent message's own, a reply's thread (the latest invitation before it).
    public var bulkId: String?
    /// A sent message's delivery status.
    public var status: DeliveryStatus?
    /// Whether a reply was marked seen (nil for a sent message).
    public var seen: Bool?
    /// What the carrier charged, when it says.
    public var price: Double?

    public init(kind: Kind, messageId: String, at: String, text: String, bulkId: String? = nil,
                status: DeliveryStatus? = nil, seen: Bool? = nil, price: Double? = nil) {
        self.kind = kind
        self.messageId = messageId
        self.at = at
        self.text = text
        self.bulkId = bulkId
        self.status = status
        self.seen = seen
        self.price = price
    }

    enum CodingKeys: String, CodingKey { case kind, messageId, at, text, bulkId, status, seen, price }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kindText = try c.decode(String.self, forKey: .kind)
        kind = Kind(rawValue: kindText) ?? .sent
        messageId = try c.decode(String.self, forKey: .messageId)
        at = try c.decode(String.self, forKey: .at)
        text = try c.decode(String.self, forKey: .text)
        bulkId = try c.decodeIfPresent(String.self, forKey: .bulkId)
        status = try c.decodeIfPresent(String.self, forKey: .status).map(DeliveryStatus.init(parsing:))
        seen = try c.decodeIfPresent(Bool.self, forKey: .seen)
        price = try c.decodeIfPresent(Double.self, forKey: .price)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(messageId, forKey: .messageId)
        try c.encode(at, forKey: .at)
        try c.encode(text, forKey: .text)
        try c.encodeIfPresent(bulkId, forKey: .bulkId)
        try c.encodeIfPresent(status?.rawValue, forKey: .status)
        try c.encodeIfPresent(seen, forKey: .seen)
        try c.encodeIfPresent(price, forKey: .price)
    }
}

/// The answer of `GET /1/social-invite/conversations/{number}`: the newest `limit` messages, oldest first.
public struct ConversationThread: Codable, Sendable, Hashable {
    /// E.164 without the plus.
    public var number: String
    /// Oldest first.
    public var entries: [ThreadEntry]
    /// Unread replies of this number.
    public var unread: Int
    /// Whether older messages exist (ask again with `before` = the first entry's `at`).
    public var hasMore: Bool

    public init(number: String, entries: [ThreadEntry], unread: Int, hasMore: Bool) {
        self.number = number
        self.entries = entries
        self.unread = unread
        self.hasMore = hasMore
    }
}

/// The body of `POST /1/social-invite/conversations/{number}/seen`.
public struct MarkSeenBody: Codable, Sendable, Hashable {
    /// Marks the replies up to and including this one (by `messageId`); nil: every reply of the number.
    public var upTo: String?
    public init(upTo: String? = nil) { self.upTo = upTo }
}

/// The answer of a seen mark.
public struct MarkSeenResult: Codable, Sendable, Hashable {
    /// Replies this call marked seen.
    public var marked: Int
    /// Unread replies of the number left.
    public var unread: Int
    /// Unread replies of the application left.
    public var unreadTotal: Int

    public init(marked: Int, unread: Int, unreadTotal: Int) {
        self.marked = marked
        self.unread = unread
        self.unreadTotal = unreadTotal
    }
}

/// Which conversations a list asks for; every field narrows it.
public struct ConversationFilter: Sendable, Hashable {
    /// Only conversations with unread replies.
    public var unreadOnly: Bool
    /// Only the conversation of this number (E.164, with or without the plus).
    public var from: String?
    /// Conversations whose latest message is older than this (the `lastAt` of the page read last).
    public var before: Date?
    /// At most this many (1 to `ListConversations.maxLimit`; nil: `ListConversations.defaultLimit`).
    public var limit: Int?

    public init(unreadOnly: Bool = false, from: String? = nil, before: Date? = nil, limit: Int? = nil) {
        self.unreadOnly = unreadOnly
        self.from = from
        self.before = before
        self.limit = limit
    }
}

/// The number as it travels in a conversation path or query: E.164 digits without the plus.
public enum ConversationNumber {
    /// `number` without a leading plus, spaces or dashes; nil unless what is left is 1 to 15 digits.
    public static func wire(_ number: String) -> String? {
        var digits = number.trimmingCharacters(in: .whitespaces)
        if digits.hasPrefix("+") { digits.removeFirst() }
        digits = digits.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "-", with: "")
        guard (1...15).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return digits
    }
}

/// `GET /1/social-invite/conversations`: conversations newest first, with their unread counts. Any key reads them.
public struct ListConversations: Endpoint {
    public typealias Response = ConversationList
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/conversations"
    public static let defaultLimit = 200
    public static let maxLimit = 1000

    public var secret: String
    public var filter: ConversationFilter

    public init(secret: String, filter: ConversationFilter = ConversationFilter()) {
        self.secret = secret
        self.filter = filter
    }

    public var credential: Credential { .app(secret) }
    public var body: EmptyBody? { nil }
    public var query: [String: String] {
        var query: [String: String] = [:]
        if filter.unreadOnly { query["unread"] = "true" }
        query["from"] = filter.from.map { ConversationNumber.wire($0) ?? $0 }
        query["before"] = filter.before.map(WireTime.text)
        query["limit"] = filter.limit.map(String.init)
        return query
    }
}

/// `GET /1/social-invite/conversations/{number}`: one number's thread, the newest `limit` messages oldest first.
/// Any key reads it.
public struct GetConversation: Endpoint {
    public typealias Response = ConversationThread
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/conversations/{number}"
    public static let defaultLimit = 200
    public static let maxLimit = 1000

    public var secret: String
    /// E.164, with or without the plus.
    public var number: String
    /// Messages older than this (the `at` of the first entry read last).
    public var before: Date?
    /// At most this many (1 to `maxLimit`; nil: `defaultLimit`).
    public var limit: Int?

    public init(secret: String, number: String, before: Date? = nil, limit: Int? = nil) {
        self.secret = secret
        self.number = number
        self.before = before
        self.limit = limit
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["number": ConversationNumber.wire(number) ?? number] }
    public var body: EmptyBody? { nil }
    public var query: [String: String] {
        var query: [String: String] = [:]
        query["before"] = before.map(WireTime.text)
        query["limit"] = limit.map(String.init)
        return query
    }
}

/// `POST /1/social-invite/conversations/{number}/seen`: marks a number's replies seen (all, or up to `upTo`).
/// A change: a viewer key is refused.
public struct MarkConversationSeen: Endpoint {
    public typealias Response = MarkSeenResult
    public static let method = HTTPMethod.post
    public static let path: PathTemplate = "/1/social-invite/conversations/{number}/seen"

    public var secret: String
    /// E.164, with or without the plus.
    public var number: String
    public var upTo: String?

    public init(secret: String, number: String, upTo: String? = nil) {
        self.secret = secret
        self.number = number
        self.upTo = upTo
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["number": ConversationNumber.wire(number) ?? number] }
    public var body: MarkSeenBody? { MarkSeenBody(upTo: upTo) }
}

extension ReplyWire: NumberMasking {
    /// The numbers masked, and what looks like a number or an address in the text.
    public func maskingNumbers() -> ReplyWire {
        var copy = self
        copy.from = PersonalDataMask.mask(from)
        copy.to = to.map(PersonalDataMask.mask)
        copy.text = PersonalDataMask.maskText(text)
        return copy
    }
}

extension ConversationSummary: NumberMasking {
    public func maskingNumbers() -> ConversationSummary {
        var copy = self
        copy.number = PersonalDataMask.mask(number)
        copy.lastText = PersonalDataMask.maskText(lastText)
        return copy
    }
}

extension ConversationList: NumberMasking {
    public func maskingNumbers() -> ConversationList {
        var copy = self
        copy.conversations = conversations.map { $0.maskingNumbers() }
        return copy
    }
}

extension ConversationThread: NumberMasking {
    public func maskingNumbers() -> ConversationThread {
        var copy = self
        copy.number = PersonalDataMask.mask(number)
        copy.entries = entries.map { entry in
            var masked = entry
            masked.text = PersonalDataMask.maskText(entry.text)
            return masked
        }
        return copy
    }
}
