import Foundation
import HeraldCore

/// One recipient's delivery state: `{"address", "messageId", "clientCorrelator", "deliveryStatus", "price"}`.
public struct DeliveryInfo: Codable, Sendable, Hashable {
    public var address: String
    public var messageId: String?
    /// The bulkId the message was sent under.
    public var clientCorrelator: String?
    /// Decoded through `DeliveryStatus(parsing:)`: accepts `DeleveredToNetwork`, never writes it.
    public var deliveryStatus: DeliveryStatus
    public var price: Double?
    /// The currency of `price` when the carrier names one (Infobip does).
    public var currency: String?
    /// Why the message failed, when it did and the carrier says.
    public var reason: String?
    /// True when the failure is for good (sending again would fail again).
    public var permanent: Bool?
    /// Herald extension: when a `Scheduled` message leaves (`WireTime`).
    public var sendAt: String?
    /// Herald extension: how often the message's own short link was opened; nil when it has none.
    public var clicks: Int?

    public init(address: String, messageId: String?, clientCorrelator: String?, deliveryStatus: DeliveryStatus,
                price: Double?, currency: String? = nil, reason: String? = nil, permanent: Bool? = nil, sendAt: String? = nil,
                clicks: Int? = nil) {
        self.clicks = clicks
        self.sendAt = sendAt
        self.address = address
        self.messageId = messageId
        self.clientCorrelator = clientCorrelator
        self.deliveryStatus = deliveryStatus
        self.price = price
        self.currency = currency
        self.reason = reason
        self.permanent = permanent
    }

    enum CodingKeys: String, CodingKey {
        case address, messageId, clientCorrelator, deliveryStatus, price, currency, reason, permanent, sendAt, clicks
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        address = try c.decode(String.self, forKey: .address)
        messageId = try c.decodeIfPresent(String.self, forKey: .messageId)
        clientCorrelator = try c.decodeIfPresent(String.self, forKey: .clientCorrelator)
        deliveryStatus = DeliveryStatus(parsing: try c.decode(String.self, forKey: .deliveryStatus))
        price = try c.decodeIfPresent(Double.self, forKey: .price)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        permanent = try c.decodeIfPresent(Bool.self, forKey: .permanent)
        sendAt = try c.decodeIfPresent(String.self, forKey: .sendAt)
        clicks = try c.decodeIfPresent(Int.self, forKey: .clicks)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(address, forKey: .address)
        try c.encodeIfPresent(messageId, forKey: .messageId)
        try c.encodeIfPresent(clientCorrelator, forKey: .clientCorrelator)
        try c.encode(deliveryStatus.wireName, forKey: .deliveryStatus)
        try c.encodeIfPresent(price, forKey: .price)
        try c.encodeIfPresent(currency, forKey: .currency)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(permanent, forKey: .permanent)
        try c.encodeIfPresent(sendAt, forKey: .sendAt)
        try c.encodeIfPresent(clicks, forKey: .clicks)
    }
}

/// Answer of the delivery infos request: `{"deliveryInfoList": {"resourceURL", "deliveryInfo": [...]}}`.
public struct DeliveryInfosResponse: Codable, Sendable, Hashable {
    public var deliveryInfoList: DeliveryInfoList

    public init(resourceURL: String, deliveryInfo: [DeliveryInfo]) {
        deliveryInfoList = DeliveryInfoList(resourceURL: resourceURL, deliveryInfo: deliveryInfo)
    }

    public struct DeliveryInfoList: Codable, Sendable, Hashable {
        public var resourceURL: String?
        public var deliveryInfo: [DeliveryInfo]

        public init(resourceURL: String?, deliveryInfo: [DeliveryInfo]) {
            self.resourceURL = resourceURL
            self.deliveryInfo = deliveryInfo
        }
    }
}

/// The push variant: `{"deliveryInfoNotification": {"deliveryInfo": {"address": "tel:...", "deliveryStatus"}, "callbackData"}}`.
public struct DeliveryInfoNotification: Codable, Sendable, Hashable {
    public var deliveryInfoNotification: Notification

    public init(deliveryInfo: DeliveryInfo, callbackData: String?) {
        deliveryInfoNotification = Notification(deliveryInfo: deliveryInfo, callbackData: callbackData)
    }

    public struct Notification: Codable, Sendable, Hashable {
        public var deliveryInfo: DeliveryInfo
        public var callbackData: String?

        public init(deliveryInfo: DeliveryInfo, callbackData: String?) {
            self.deliveryInfo = deliveryInfo
            self.callbackData = callbackData
        }
    }
}

/// `GET /1/smsmessaging/outbound/requests/{bulkId}/deliveryInfos` with `App <application secret>`.
/// An unknown bulk answers 404 "Message not found for specified request ID".
public struct GetDeliveryInfos: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = DeliveryInfosResponse
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/smsmessaging/outbound/requests/{bulkId}/deliveryInfos"
    /// The text of the 404 for an unknown bulk.
    public static let unknownBulkText = "Message not found for specified request ID"

    public var secret: String
    public var bulkId: String

    public init(secret: String, bulkId: String) {
        self.secret = secret
        self.bulkId = bulkId
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["bulkId": bulkId] }
    public var body: EmptyBody? { nil }
}
