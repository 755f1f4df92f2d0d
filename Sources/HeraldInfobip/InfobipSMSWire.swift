import Foundation

/// Body of `POST /sms/3/messages`: one entry per recipient (Herald renders each text itself), all under
/// one bulk. `destinations[].messageId` is the engine's messageId, so a message can be found again by it.
public struct InfobipSendRequest: Codable, Sendable, Hashable {
    public var messages: [Message]
    public var options: Options?

    public struct Message: Codable, Sendable, Hashable {
        public var sender: String
        public var destinations: [Destination]
        public var content: Content
        public var options: MessageOptions?
        public var webhooks: Webhooks?

        public init(sender: String, destinations: [Destination], content: Content, options: MessageOptions? = nil,
                    webhooks: Webhooks? = nil) {
            self.sender = sender
            self.destinations = destinations
            self.content = content
            self.options = options
            self.webhooks = webhooks
        }
    }

    /// `messages[].options`: what one message carries besides its text (each part only when set).
    public struct MessageOptions: Codable, Sendable, Hashable {
        public var validityPeriod: ValidityPeriod?
        public var deliveryTimeWindow: DeliveryTimeWindow?
        public var campaignReferenceId: String?
        public var regional: Regional?

        public init(validityPeriod: ValidityPeriod? = nil, deliveryTimeWindow: DeliveryTimeWindow? = nil,
                    campaignReferenceId: String? = nil, regional: Regional? = nil) {
            self.validityPeriod = validityPeriod
            self.deliveryTimeWindow = deliveryTimeWindow
            self.campaignReferenceId = campaignReferenceId
            self.regional = regional
        }
    }

    /// `{amount, timeUnit}`; Infobip cuts anything over 48 hours to 48.
    public struct ValidityPeriod: Codable, Sendable, Hashable {
        public var amount: Int
        public var timeUnit: String
    }

    /// Days, and UTC hours within them, a message may be delivered in.
    public struct DeliveryTimeWindow: Codable, Sendable, Hashable {
        public var days: [String]
        public var from: DeliveryTime?
        public var to: DeliveryTime?
    }

    public struct DeliveryTime: Codable, Sendable, Hashable {
        public var hour: Int
        public var minute: Int
    }

    public struct Regional: Codable, Sendable, Hashable {
        public var indiaDlt: IndiaDlt?
        public var turkeyIys: TurkeyIys?
    }

    /// India's DLT registration of the sender and the template.
    public struct IndiaDlt: Codable, Sendable, Hashable {
        public var contentTemplateId: String?
        public var principalEntityId: String
        public var telemarketerId: String?

        public init(contentTemplateId: String?, principalEntityId: String, telemarketerId: String?) {
            self.contentTemplateId = contentTemplateId
            self.principalEntityId = principalEntityId
            self.telemarketerId = telemarketerId
        }
    }

    /// Turkey's IYS: the brand and whether recipients are individuals (BIREYSEL) or merchants (TACIR).
    public struct TurkeyIys: Codable, Sendable, Hashable {
        public var brandCode: Int?
        public var recipientType: String

        public init(brandCode: Int?, recipientType: String) {
            self.brandCode = brandCode
            self.recipientType = recipientType
        }
    }

    /// Where Infobip pushes this message's delivery reports, and what it hands back with them.
    public struct Webhooks: Codable, Sendable, Hashable {
        public var delivery: Delivery
        public var contentType: String
        /// Herald's ids of the message (at most 4,000 characters), returned with each report.
        public var callbackData: String?

        public struct Delivery: Codable, Sendable, Hashable {
            public var url: String
            /// Reports before the final one too (delivered to the operator).
            public var intermediateReport: Bool
            public var notify: Bool
        }
    }

    public struct Destination: Codable, Sendable, Hashable {
        public var to: String
        public var messageId: String?
    }

    public struct Content: Codable, Sendable, Hashable {
        public var text: String
        public var transliteration: String?
        public var language: Language?

        public init(text: String, transliteration: String? = nil, language: Language? = nil) {
            self.text = text
            self.transliteration = transliteration
            self.language = language
        }
    }

    public struct Language: Codable, Sendable, Hashable {
        public var languageCode: String
    }

    /// The request's `options`: its bulk and pace, URL shortening and click tracking, conversion tracking.
    public struct Options: Codable, Sendable, Hashable {
        public var schedule: Schedule?
        public var tracking: Tracking?
        public var conversionTracking: ConversionTracking?

        public init(schedule: Schedule? = nil, tracking: Tracking? = nil, conversionTracking: ConversionTracking? = nil) {
            self.schedule = schedule
            self.tracking = tracking
            self.conversionTracking = conversionTracking
        }
    }

    public struct Schedule: Codable, Sendable, Hashable {
        public var bulkId: String?
        public var sendingSpeedLimit: SpeedLimit?

        public init(bulkId: String? = nil, sendingSpeedLimit: SpeedLimit? = nil) {
            self.bulkId = bulkId
            self.sendingSpeedLimit = sendingSpeedLimit
        }
    }

    /// At most `amount` messages a `timeUnit` (MINUTE, HOUR, DAY).
    public struct SpeedLimit: Codable, Sendable, Hashable {
        public var amount: Int
        public var timeUnit: String
    }

    /// URL shortening and click tracking of the links in the texts.
    public struct Tracking: Codable, Sendable, Hashable {
        public var shortenUrl: Bool?
        public var trackClicks: Bool?
        public var trackingUrl: String?
        public var removeProtocol: Bool?
        public var customDomain: String?

        public init(shortenUrl: Bool? = nil, trackClicks: Bool? = nil, trackingUrl: String? = nil, removeProtocol: Bool? = nil,
                    customDomain: String? = nil) {
            self.shortenUrl = shortenUrl
            self.trackClicks = trackClicks
            self.trackingUrl = trackingUrl
            self.removeProtocol = removeProtocol
            self.customDomain = customDomain
        }
    }

    public struct ConversionTracking: Codable, Sendable, Hashable {
        public var useConversionTracking: Bool
        public var conversionTrackingName: String
    }

    public init(bulkId: String?, messages: [Message]) {
        self.messages = messages
        self.options = bulkId.map { Options(schedule: Schedule(bulkId: $0)) }
    }
}

/// A status as Infobip writes it: `{groupId, groupName, id, name, description}`.
public struct InfobipStatus: Codable, Sendable, Hashable {
    public var groupId: Int?
    public var groupName: String?
    public var id: Int?
    public var name: String?
    public var description: String?

    public init(groupId: Int?, groupName: String?, id: Int?, name: String?, description: String?) {
        self.groupId = groupId
        self.groupName = groupName
        self.id = id
        self.name = name
        self.description = description
    }
}

/// The error of a report: like a status, plus whether it is for good.
public struct InfobipReportError: Codable, Sendable, Hashable {
    public var groupId: Int?
    public var groupName: String?
    public var id: Int?
    public var name: String?
    public var description: String?
    public var permanent: Bool?
}

/// Answer of `POST /sms/3/messages`.
public struct InfobipSendResponse: Codable, Sendable, Hashable {
    public var bulkId: String?
    public var messages: [Message]

    public struct Message: Codable, Sendable, Hashable {
        public var messageId: String?
        public var destination: String?
        public var status: InfobipStatus?
    }
}

/// A delivery report, as `GET /sms/3/reports` answers it and as Infobip posts it to a report webhook (`{"results": […]}`).
public struct InfobipReportsResponse: Codable, Sendable, Hashable {
    public var results: [Report]

    enum CodingKeys: String, CodingKey { case results }

    public init(results: [Report]) { self.results = results }

    /// The published schema does not require `results`: an answer without it has no reports.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        results = try c.decodeIfPresent([Report].self, forKey: .results) ?? []
    }

    public struct Report: Codable, Sendable, Hashable {
        public var bulkId: String?
        public var messageId: String?
        public var to: String?
        public var sender: String?
        public var sentAt: String?
        public var doneAt: String?
        /// SMS parts charged.
        public var messageCount: Int?
        public var smsCount: Int?
        public var mccMnc: String?
        public var callbackData: String?
        public var price: InfobipLogsResponse.Price?
        public var status: InfobipStatus?
        public var error: InfobipReportError?
    }
}

/// Answer of `GET /sms/3/logs`: results, and a cursor when more pages wait.
public struct InfobipLogsResponse: Codable, Sendable, Hashable {
    public var results: [Log]
    public var cursor: Cursor?

    enum CodingKeys: String, CodingKey { case results, cursor }

    public init(results: [Log], cursor: Cursor? = nil) {
        self.results = results
        self.cursor = cursor
    }

    /// The published schema does not require `results`: an answer without it has no logs.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        results = try c.decodeIfPresent([Log].self, forKey: .results) ?? []
        cursor = try c.decodeIfPresent(Cursor.self, forKey: .cursor)
    }

    public struct Log: Codable, Sendable, Hashable {
        public var bulkId: String?
        public var messageId: String?
        public var destination: String?
        public var sender: String?
        public var sentAt: String?
        public var doneAt: String?
        /// SMS parts (`smsCount` on v3; `messageCount` in some answers).
        public var smsCount: Int?
        public var messageCount: Int?
        public var price: Price?
        public var status: InfobipStatus?
        public var error: InfobipReportError?
    }

    public struct Price: Codable, Sendable, Hashable {
        public var pricePerMessage: Double?
        public var currency: String?
    }

    public struct Cursor: Codable, Sendable, Hashable {
        public var limit: Int?
        public var nextCursor: String?
    }
}
