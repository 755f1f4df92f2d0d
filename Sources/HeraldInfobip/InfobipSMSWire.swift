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

    /// `options.schedule`: the bulk the request's messages belong to, when they leave, and at what pace.
    public struct Schedule: Codable, Sendable, Hashable {
        /// At most 100 characters; Infobip makes one up when absent.
        public var bulkId: String?
        /// When the messages leave, as `InfobipBulkSchedule.sendAtText` writes it (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`), at most
        /// 180 days ahead; absent, they leave at once. Infobip holds them until then, whether Herald runs or not; the bulk
        /// is then moved or cancelled through `/sms/1/bulks`.
        public var sendAt: String?
        public var sendingSpeedLimit: SpeedLimit?

        public init(bulkId: String? = nil, sendAt: String? = nil, sendingSpeedLimit: SpeedLimit? = nil) {
            self.bulkId = bulkId
            self.sendAt = sendAt
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

    /// `sendAt`: when Infobip is to send the messages (nil: at once).
    public init(bulkId: String?, sendAt: Date? = nil, messages: [Message]) {
        self.messages = messages
        let text = sendAt.map(InfobipBulkSchedule.sendAtText)
        self.options = bulkId == nil && text == nil ? nil : Options(schedule: Schedule(bulkId: bulkId, sendAt: text))
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

/// A scheduled bulk's time: the answer of `GET` and `PUT /sms/1/bulks?bulkId=`, and (without `bulkId`) the body of the
/// `PUT` that moves it. The published schema requires neither field in an answer.
public struct InfobipBulkSchedule: Codable, Sendable, Hashable {
    public var bulkId: String?
    /// `yyyy-MM-dd'T'HH:mm:ss.SSSZ` (`2021-08-25T16:00:00.000+0000`); `sendAtDate` is the instant.
    public var sendAt: String?

    public init(bulkId: String? = nil, sendAt: String?) {
        self.bulkId = bulkId
        self.sendAt = sendAt
    }

    /// The body of a reschedule: `{"sendAt": …}`.
    public init(sendAt: Date) { self.init(sendAt: Self.sendAtText(sendAt)) }

    /// `sendAt` as an instant; nil when absent or unreadable.
    public var sendAtDate: Date? { sendAt.flatMap(Self.parseSendAt) }

    /// An instant as Infobip publishes `sendAt`: `yyyy-MM-dd'T'HH:mm:ss.SSSZ` in UTC, the offset written `+0000`
    /// (`2026-12-01T08:00:00.000+0000`), to the millisecond.
    public static func sendAtText(_ date: Date) -> String {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (millis / 1000).rounded(.down)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                        from: Date(timeIntervalSince1970: seconds))
        func digits(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(digits(c.year, 4))-\(digits(c.month, 2))-\(digits(c.day, 2))T\(digits(c.hour, 2)):\(digits(c.minute, 2)):"
            + "\(digits(c.second, 2)).\(digits(Int(millis - seconds * 1000), 3))+0000"
    }

    /// The instant of a date-time as Infobip writes them: `yyyy-MM-dd'T'HH:mm:ss`, a fraction of any length or none, and an
    /// offset written `+0000`, `+00:00`, `+00` or `Z` (answers and SDK examples use all of these). Nil when it is not one.
    public static func parseSendAt(_ text: String) -> Date? {
        let chars = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= chars.count else { return nil }
            var value = 0
            for c in chars[i..<i + width] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += width
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < chars.count, chars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2),
              expect(84) || expect(116), let hour = number(2), expect(58), let minute = number(2), expect(58),
              let second = number(2) else { return nil }
        var fraction = 0.0
        if expect(46) {
            var scale = 0.1
            let start = i
            while i < chars.count, chars[i] >= 48, chars[i] <= 57 {
                fraction += Double(chars[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset = 0
        if expect(90) || expect(122) {
            offset = 0
        } else if i < chars.count, chars[i] == 43 || chars[i] == 45 {
            let sign = chars[i] == 45 ? -1 : 1
            i += 1
            guard let hours = number(2), hours <= 18 else { return nil }
            var minutes = 0
            if i < chars.count {
                _ = expect(58)
                guard let m = number(2), m < 60 else { return nil }
                minutes = m
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == chars.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A day the month does not have (February 30) comes back as another day.
        guard let local = calendar.date(from: parts), calendar.component(.day, from: local) == day else { return nil }
        return local.addingTimeInterval(fraction - Double(offset))
    }
}

/// A scheduled bulk's state: the answer of `GET` and `PUT /sms/1/bulks/status?bulkId=`, and (without `bulkId`) the body
/// of the `PUT` that pauses, resumes or cancels it.
public struct InfobipBulkStatus: Codable, Sendable, Hashable {
    public var bulkId: String?
    public var status: Status?

    public init(bulkId: String? = nil, status: Status?) {
        self.bulkId = bulkId
        self.status = status
    }

    /// Infobip's `BulkStatus`. A value it may add later is kept as `other`, not refused.
    public enum Status: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
        /// Waiting for its `sendAt`.
        case pending
        /// Held until resumed (`processing`), even past its `sendAt`.
        case paused
        /// Being sent.
        case processing
        /// Taken back: none of it leaves.
        case canceled
        /// Sent.
        case finished
        case failed
        case other(String)

        public init(rawValue: String) {
            switch rawValue {
            case "PENDING": self = .pending
            case "PAUSED": self = .paused
            case "PROCESSING": self = .processing
            case "CANCELED": self = .canceled
            case "FINISHED": self = .finished
            case "FAILED": self = .failed
            default: self = .other(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .pending: "PENDING"
            case .paused: "PAUSED"
            case .processing: "PROCESSING"
            case .canceled: "CANCELED"
            case .finished: "FINISHED"
            case .failed: "FAILED"
            case .other(let text): text
            }
        }

        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        public var description: String { rawValue }

        /// Whether the bulk has left Infobip's hold (being sent or sent): it can no longer be taken back.
        public var hasLeft: Bool { self == .processing || self == .finished }
    }
}
