import Foundation
import HeraldCore

/// A time on Herald's wire: ISO 8601 in UTC with milliseconds ("2026-12-01T08:00:00.000Z").
public enum WireTime {
    /// The text of `date`, rounded to the millisecond (a formatter would cut it, and a time read back would move).
    public static func text(_ date: Date) -> String {
        let millis = date.epochMilliseconds
        let seconds = Int64((Double(millis) / 1000).rounded(.down))
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
        let base = whole.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))   // …T08:00:00Z
        let fraction = String(millis - seconds * 1000)
        return base.dropLast() + "." + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }

    /// The instant `text` names (with or without milliseconds, any offset); nil when it is not one.
    public static func date(_ text: String) -> Date? {
        if let exact = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return exact }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}

/// Where a held bulk stands: what is still held (and until when), what left, what was taken back.
public struct BulkSchedule: Codable, Sendable, Hashable {
    public var bulkId: String
    /// When the earliest held message leaves (`WireTime`); nil when none is held.
    public var sendAt: String?
    /// Messages still held by the platform.
    public var held: Int
    /// Messages that left (handed to the carrier), whatever became of them.
    public var left: Int
    /// Messages taken back.
    public var cancelled: Int

    public init(bulkId: String, sendAt: String?, held: Int, left: Int, cancelled: Int) {
        self.bulkId = bulkId
        self.sendAt = sendAt
        self.held = held
        self.left = left
        self.cancelled = cancelled
    }
}

/// The body of a reschedule: the new time (`WireTime`).
public struct BulkRescheduleBody: Codable, Sendable, Hashable {
    public var sendAt: String
    public init(sendAt: String) { self.sendAt = sendAt }
}

/// The body of a status change; `CANCELED` (as Infobip spells it) is the one change a client may ask for.
public struct BulkStatusBody: Codable, Sendable, Hashable {
    public static let canceled = "CANCELED"
    public var status: String
    public init(status: String) { self.status = status }
}

/// `GET /1/social-invite/bulks/{bulkId}/schedule`: where a held bulk stands.
public struct GetBulkSchedule: Endpoint {
    public typealias Response = BulkSchedule
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/bulks/{bulkId}/schedule"

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

/// `PUT /1/social-invite/bulks/{bulkId}/schedule`: moves what is still held to a new time.
public struct RescheduleBulk: Endpoint {
    public typealias Response = BulkSchedule
    public static let method = HTTPMethod.put
    public static let path: PathTemplate = "/1/social-invite/bulks/{bulkId}/schedule"

    public var secret: String
    public var bulkId: String
    public var payload: BulkRescheduleBody

    public init(secret: String, bulkId: String, sendAt: Date) {
        self.secret = secret
        self.bulkId = bulkId
        self.payload = BulkRescheduleBody(sendAt: WireTime.text(sendAt))
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["bulkId": bulkId] }
    public var body: BulkRescheduleBody? { payload }
}

/// `PUT /1/social-invite/bulks/{bulkId}/status` with `CANCELED`: takes back what is still held, in one unit (a
/// plain hold leaves whole or not at all); the answer says what was taken back and what had left.
public struct CancelBulk: Endpoint {
    public typealias Response = BulkSchedule
    public static let method = HTTPMethod.put
    public static let path: PathTemplate = "/1/social-invite/bulks/{bulkId}/status"

    public var secret: String
    public var bulkId: String

    public init(secret: String, bulkId: String) {
        self.secret = secret
        self.bulkId = bulkId
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["bulkId": bulkId] }
    public var body: BulkStatusBody? { BulkStatusBody(status: BulkStatusBody.canceled) }
}
