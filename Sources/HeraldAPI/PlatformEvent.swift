import Foundation

/// A message of the platform's event stream (the ICWS pattern): every message carries a `__type`;
/// a type this client does not know decodes to `.unknown(type:)` instead of failing, so it can be
/// logged and skipped. `isDelta` is false on the first message of a subscription (replace the cache).
public enum PlatformEvent: Sendable, Hashable, Codable {
    /// `urn:herald:delivery:changed` — new delivery states of one bulk; the event that announces a bulk carries its
    /// message as written (`text`) and who sent it (`sentBy`: the server key's name), so colleagues' screens show
    /// what was sent and by whom.
    case deliveryChanged(bulkId: String, deliveryInfo: [DeliveryInfo], isDelta: Bool, text: String? = nil, sentBy: String? = nil)
    /// `urn:herald:inbox:message` — a message arrived in a user's inbox.
    case inboxMessage(externalUserId: String, message: InboxWireMessage)
    /// `urn:herald:link:clicked` — a short link was opened.
    case linkClicked(ReferralLink)
    /// `urn:herald:reply:received` — a person's reply was kept (once, however often the carrier reported it).
    case replyReceived(ReplyWire)
    /// `urn:herald:reply:seen` — a number's replies were marked seen: what is left unread of it and of the application.
    case conversationSeen(number: String, unread: Int, unreadTotal: Int)
    /// Any other `__type`.
    case unknown(type: String)

    public static let deliveryChangedType = "urn:herald:delivery:changed"
    public static let inboxMessageType = "urn:herald:inbox:message"
    public static let linkClickedType = "urn:herald:link:clicked"
    public static let replyReceivedType = "urn:herald:reply:received"
    public static let conversationSeenType = "urn:herald:reply:seen"

    enum CodingKeys: String, CodingKey {
        case type = "__type"
        case bulkId, deliveryInfo, isDelta, text, sentBy, externalUserId, message, link, reply, number, unread, unreadTotal
    }

    /// The `__type` this event travels under.
    public var type: String {
        switch self {
        case .deliveryChanged: return Self.deliveryChangedType
        case .inboxMessage: return Self.inboxMessageType
        case .linkClicked: return Self.linkClickedType
        case .replyReceived: return Self.replyReceivedType
        case .conversationSeen: return Self.conversationSeenType
        case .unknown(let type): return type
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case Self.deliveryChangedType:
            self = .deliveryChanged(bulkId: try c.decode(String.self, forKey: .bulkId),
                                    deliveryInfo: try c.decode([DeliveryInfo].self, forKey: .deliveryInfo),
                                    isDelta: try c.decodeIfPresent(Bool.self, forKey: .isDelta) ?? true,
                                    text: try c.decodeIfPresent(String.self, forKey: .text),
                                    sentBy: try c.decodeIfPresent(String.self, forKey: .sentBy))
        case Self.inboxMessageType:
            self = .inboxMessage(externalUserId: try c.decode(String.self, forKey: .externalUserId),
                                 message: try c.decode(InboxWireMessage.self, forKey: .message))
        case Self.linkClickedType:
            self = .linkClicked(try c.decode(ReferralLink.self, forKey: .link))
        case Self.replyReceivedType:
            self = .replyReceived(try c.decode(ReplyWire.self, forKey: .reply))
        case Self.conversationSeenType:
            self = .conversationSeen(number: try c.decode(String.self, forKey: .number),
                                     unread: try c.decode(Int.self, forKey: .unread),
                                     unreadTotal: try c.decode(Int.self, forKey: .unreadTotal))
        default:
            self = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .deliveryChanged(let bulkId, let infos, let isDelta, let text, let sentBy):
            try c.encode(bulkId, forKey: .bulkId)
            try c.encode(infos, forKey: .deliveryInfo)
            try c.encode(isDelta, forKey: .isDelta)
            try c.encodeIfPresent(text, forKey: .text)
            try c.encodeIfPresent(sentBy, forKey: .sentBy)
        case .inboxMessage(let user, let message):
            try c.encode(user, forKey: .externalUserId)
            try c.encode(message, forKey: .message)
        case .linkClicked(let link):
            try c.encode(link, forKey: .link)
        case .replyReceived(let reply):
            try c.encode(reply, forKey: .reply)
        case .conversationSeen(let number, let unread, let unreadTotal):
            try c.encode(number, forKey: .number)
            try c.encode(unread, forKey: .unread)
            try c.encode(unreadTotal, forKey: .unreadTotal)
        case .unknown:
            break
        }
    }
}

/// A batch of events; an element that is not even an object with a `__type` is dropped, not fatal.
public struct PlatformEventBatch: Decodable, Sendable, Hashable {
    public var events: [PlatformEvent]
    /// How many elements could not be read at all.
    public var dropped: Int

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var events: [PlatformEvent] = []
        var dropped = 0
        while !c.isAtEnd {
            if let event = try? c.decode(PlatformEvent.self) {
                events.append(event)
            } else {
                _ = try? c.decode(Skip.self)
                dropped += 1
            }
        }
        self.events = events
        self.dropped = dropped
    }

    private struct Skip: Decodable {}
}
