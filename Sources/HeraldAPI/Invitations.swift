import Foundation
import HeraldCore

/// Body of `POST /1/social-invite/invitation`.
public struct SendInvitationBody: Codable, Sendable, Hashable {
    /// The application message to send (its `key`).
    public var messageKey: String
    /// The sender ID (alphanumeric name or number).
    public var sender: String
    public var recipients: Recipients
    /// Herald extension: when the messages leave (`WireTime`); until then the platform holds them and they can be
    /// taken back (`CancelBulk`) or moved (`RescheduleBulk`). Nil: now.
    public var sendAt: String?
    /// Herald extension: send by email instead of SMS. Each destination's `address` is then an email address and
    /// `sender` the From ("Ana Kovač <ana@example.com>" or a bare address).
    public var email: Email?
    /// Herald extension: the bulk whose failed recipients this request sends again (what the audit trail records
    /// as a resend). Nil: a send of its own.
    public var resendOf: String?
    /// Herald extension: every destination's `text` leaves exactly as written — no link made or appended, no field
    /// filled (an answer to a reply). Every destination must then carry `text`; an email invitation cannot be one.
    /// Nil or false: the message's rules.
    public var asWritten: Bool?

    public init(messageKey: String, sender: String, destinations: [Destination], sendAt: String? = nil, email: Email? = nil,
                resendOf: String? = nil, asWritten: Bool? = nil) {
        self.asWritten = asWritten
        self.messageKey = messageKey
        self.sender = sender
        self.recipients = Recipients(destinations: destinations)
        self.sendAt = sendAt
        self.email = email
        self.resendOf = resendOf
    }

    /// What an email invitation adds to the request.
    public struct Email: Codable, Sendable, Hashable {
        public var subject: String
        /// The body, with the message's placeholders (its link, client fields); nil: the message's own text.
        public var text: String?

        public init(subject: String, text: String? = nil) {
            self.subject = subject
            self.text = text
        }
    }

    public struct Recipients: Codable, Sendable, Hashable {
        public var destinations: [Destination]
        public init(destinations: [Destination]) { self.destinations = destinations }
    }

    public struct Destination: Codable, Sendable, Hashable {
        /// E.164 without the plus ("385981234567"); an email address when the request is an email invitation.
        public var address: String
        /// The client's id for this message; replaying it returns the earlier result.
        public var messageId: String?
        /// Fills the message's client placeholders in order (sender name, receiver name, custom text…).
        public var clientData: [String]?
        /// Herald extension: a later time for this destination than the request's `sendAt` (its quiet hours).
        public var sendAt: String?
        /// Herald extension: this destination's own text instead of the message's: the message's link placeholder
        /// and client fields still in (the platform fills them as in the message), personal fields already filled by
        /// the client. With the request's `asWritten`, the text exactly as it leaves. At most `maxTextLength`
        /// characters for an SMS, as many as `email.text` may have for an email; a longer one rejects this destination
        /// alone. Nil: the message's text.
        public var text: String?

        /// The most characters one destination's own `text` may have.
        public static let maxTextLength = 1600

        /// The most characters one `clientData` value may have (a whole SMS text's worth); a client cuts its values to
        /// this before sending, a platform rejects a destination whose value is longer.
        public static let maxClientDataLength = 1600

        public init(address: String, messageId: String? = nil, clientData: [String]? = nil, sendAt: String? = nil,
                    text: String? = nil) {
            self.text = text
            self.address = address
            self.messageId = messageId
            self.clientData = clientData
            self.sendAt = sendAt
        }
    }
}

/// Answer of `POST /1/social-invite/invitation`.
public struct SendInvitationResponse: Codable, Sendable, Hashable {
    public var sendSmsResponse: SendSmsResponse

    public init(sendSmsResponse: SendSmsResponse) { self.sendSmsResponse = sendSmsResponse }

    public struct SendSmsResponse: Codable, Sendable, Hashable {
        public var bulkId: String
        public var deliveryInfoUrl: String
        public var responses: [MessageResponse]

        public init(bulkId: String, deliveryInfoUrl: String, responses: [MessageResponse]) {
            self.bulkId = bulkId
            self.deliveryInfoUrl = deliveryInfoUrl
            self.responses = responses
        }
    }

    /// One destination's result, in the order of the request's destinations.
    public struct MessageResponse: Codable, Sendable, Hashable {
        public var messageId: String
        /// `MessageWaiting` (or later) when accepted, `Rejected` when refused.
        public var status: DeliveryStatus
        public var price: Double
        /// Herald extension: the destination address, echoed.
        public var address: String?
        /// Herald extension: why the destination was rejected.
        public var reason: String?
        /// Herald extension: the bulk this message belongs to (differs from the response's bulkId on a replay).
        public var bulkId: String?
        /// Herald extension: the text as sent (fields filled, link made), for accepted messages.
        public var text: String?

        public init(messageId: String, status: DeliveryStatus, price: Double, address: String? = nil,
                    reason: String? = nil, bulkId: String? = nil, text: String? = nil) {
            self.text = text
            self.messageId = messageId
            self.status = status
            self.price = price
            self.address = address
            self.reason = reason
            self.bulkId = bulkId
        }

        enum CodingKeys: String, CodingKey { case messageId, status, price, address, reason, bulkId, text }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            messageId = try c.decode(String.self, forKey: .messageId)
            status = DeliveryStatus(parsing: try c.decode(String.self, forKey: .status))
            price = try c.decodeIfPresent(Double.self, forKey: .price) ?? 0
            address = try c.decodeIfPresent(String.self, forKey: .address)
            reason = try c.decodeIfPresent(String.self, forKey: .reason)
            bulkId = try c.decodeIfPresent(String.self, forKey: .bulkId)
            text = try c.decodeIfPresent(String.self, forKey: .text)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(messageId, forKey: .messageId)
            try c.encode(status.wireName, forKey: .status)
            try c.encode(price, forKey: .price)
            try c.encodeIfPresent(address, forKey: .address)
            try c.encodeIfPresent(reason, forKey: .reason)
            try c.encodeIfPresent(bulkId, forKey: .bulkId)
            try c.encodeIfPresent(text, forKey: .text)
        }
    }
}

/// `POST /1/social-invite/invitation` with `Authorization: App <application secret>`.
public struct SendInvitation: Endpoint {
    public typealias Response = SendInvitationResponse
    public static let method = HTTPMethod.post
    public static let path: PathTemplate = "/1/social-invite/invitation"
    /// The most destinations one request may carry.
    public static let maxDestinations = 1000

    public var secret: String
    public var payload: SendInvitationBody

    public init(secret: String, body: SendInvitationBody) {
        self.secret = secret
        self.payload = body
    }

    public var credential: Credential { .app(secret) }
    public var body: SendInvitationBody? { payload }
}

extension DeliveryStatus {
    /// The spelling written on the wire (never the historical `DeleveredToNetwork`).
    public var wireName: String { rawValue }
}
