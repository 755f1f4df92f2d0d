import Foundation
import HeraldCore

/// One accepted message handed to a carrier after the transaction that accepted it committed.
public struct OutboundSMS: Sendable, Hashable {
    public var messageId: String
    public var bulkId: String
    /// E.164 without the plus.
    public var address: String
    public var sender: String
    public var text: String
    public var acceptedAt: Date
    /// The message was handed over before and no answer was stored (the process died in between): the carrier
    /// must find out whether it already took it before taking it again, so nothing is sent twice.
    public var mayHaveBeenSent: Bool
    /// When the carrier is to send it, for a carrier that holds scheduled messages itself (nil: at once).
    public var sendAt: Date?

    public init(messageId: String, bulkId: String, address: String, sender: String, text: String, acceptedAt: Date,
                mayHaveBeenSent: Bool = false, sendAt: Date? = nil) {
        self.sendAt = sendAt
        self.messageId = messageId
        self.bulkId = bulkId
        self.address = address
        self.sender = sender
        self.text = text
        self.acceptedAt = acceptedAt
        self.mayHaveBeenSent = mayHaveBeenSent
    }
}

/// A message the carrier holds whose next report is due.
public struct InFlightSMS: Sendable, Hashable {
    public var messageId: String
    public var bulkId: String
    public var acceptedAt: Date
    /// The status stored last.
    public var status: DeliveryStatus

    public init(messageId: String, bulkId: String, acceptedAt: Date, status: DeliveryStatus) {
        self.messageId = messageId
        self.bulkId = bulkId
        self.acceptedAt = acceptedAt
        self.status = status
    }
}

/// What a carrier says of one message: its status now and when to ask again (nil: the status is final).
public struct CarrierReport: Sendable, Hashable {
    public var messageId: String
    public var status: DeliveryStatus
    public var nextCheckAt: Date?
    /// What the carrier charged per message, when it says (nil keeps the engine's own estimate).
    public var price: Double?
    public var currency: String?
    /// Why the message failed, in the carrier's words (nil when it did not).
    public var reason: String?
    /// Whether the failure is for good: sending the same message again would fail again.
    public var permanent: Bool
    /// The bulk the carrier names with a report it pushed or queued (tells apart two applications' equal messageIds).
    public var bulkId: String?

    public init(messageId: String, status: DeliveryStatus, nextCheckAt: Date?, price: Double? = nil,
                currency: String? = nil, reason: String? = nil, permanent: Bool = false, bulkId: String? = nil) {
        self.messageId = messageId
        self.bulkId = bulkId
        self.status = status
        self.nextCheckAt = nextCheckAt
        self.price = price
        self.currency = currency
        self.reason = reason
        self.permanent = permanent
    }
}

/// The network that really delivers messages. The engine hands it messages from its outbox once they are
/// committed and stores every report it gives as the message's status; nothing is computed when read.
/// The simulated carrier is one; Infobip's SMS API is another.
public protocol Carrier: Sendable {
    /// Takes messages; answers one report for each message it took or refused for good (`rejected`, with the
    /// reason). A message left out stays claimed in the outbox and comes back later marked `mayHaveBeenSent`.
    func submit(_ messages: [OutboundSMS], at now: Date) async throws -> [CarrierReport]
    /// Reports on messages whose next report was due at `now`.
    func reports(_ messages: [InFlightSMS], at now: Date) async throws -> [CarrierReport]
    /// Seconds a hand-over may take at the longest. Messages claimed for the carrier stay with the process that
    /// claimed them this long; after that they are taken to be lost with it (it died) and handed over again,
    /// marked `mayHaveBeenSent`.
    var handOverLease: TimeInterval { get }
    /// Reports the carrier keeps until they are collected, each given once (Infobip's `GET /sms/3/reports`). The engine
    /// stores a batch before it asks for the next; `more` says another ask would give more now.
    func queuedReports(at now: Date) async throws -> QueuedReports
    /// Reads the reports the carrier pushed to Herald (the body of its call to the report webhook).
    func pushedReports(_ body: Data, at now: Date) throws(CarrierReportsError) -> [CarrierReport]
    /// Whether the carrier holds a held send itself until its time (Infobip's `sendAt`), so it leaves even when no
    /// Herald process runs: the engine then hands held messages over at once, with `sendAt`, and takes them back or
    /// moves them through `cancel` and `reschedule`. False: the engine holds them and hands them over when due.
    var holdsScheduled: Bool { get }
    /// Takes back a bulk the carrier holds, all of it in one step: true when it was taken back, false when it had
    /// already left (all of it). Only called when `holdsScheduled`.
    func cancel(bulkId: String) async throws -> Bool
    /// Moves a bulk the carrier holds to `sendAt`. Only called when `holdsScheduled`.
    func reschedule(bulkId: String, to sendAt: Date) async throws
    /// SMS people sent back (Infobip's received messages), each given once: the engine opts out those that say stop.
    func replies(at now: Date) async throws -> [CarrierReply]
}

/// An SMS a person sent back.
public struct CarrierReply: Sendable, Hashable {
    /// The carrier's id of the reply (Infobip's `messageId`): a reply is kept once under it. Nil when the carrier
    /// gives none (the sandbox, the simulated carrier): the engine makes a fresh one.
    public var messageId: String?
    /// E.164 without the plus.
    public var from: String
    /// The number it was sent to (the account's number), E.164 without the plus, when the carrier says.
    public var to: String?
    public var text: String
    /// When the carrier received it (nil: when the engine stores it).
    public var receivedAt: Date?
    /// What the carrier charged for it, when it says.
    public var price: Double?
    public var currency: String?

    public init(from: String, text: String) {
        self.from = from
        self.text = text
    }

    public init(messageId: String?, from: String, to: String?, text: String, receivedAt: Date?, price: Double? = nil,
                currency: String? = nil) {
        self.messageId = messageId
        self.from = from
        self.to = to
        self.text = text
        self.receivedAt = receivedAt
        self.price = price
        self.currency = currency
    }
}

/// A batch of reports collected from the carrier's queue.
public struct QueuedReports: Sendable, Hashable {
    public var reports: [CarrierReport]
    /// Whether the carrier holds more right now (the batch was full).
    public var more: Bool

    public init(reports: [CarrierReport], more: Bool) {
        self.reports = reports
        self.more = more
    }
}

/// Why reports pushed to the webhook were not taken.
public enum CarrierReportsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This carrier pushes no reports.
    case notPushed
    /// The body is not the carrier's report format; the text names what is wrong.
    case unreadable(String)

    public var description: String {
        switch self {
        case .notPushed: return "this server's carrier does not push reports"
        case .unreadable(let text): return "the reports cannot be read: \(text)"
        }
    }
}

extension Carrier {
    public var handOverLease: TimeInterval { 120 }
    public func queuedReports(at now: Date) async throws -> QueuedReports { QueuedReports(reports: [], more: false) }
    public func pushedReports(_ body: Data, at now: Date) throws(CarrierReportsError) -> [CarrierReport] { throw .notPushed }
    public var holdsScheduled: Bool { false }
    public func replies(at now: Date) async throws -> [CarrierReply] { [] }
    public func cancel(bulkId: String) async throws -> Bool { throw CarrierReportsError.unreadable("this carrier holds no bulks") }
    public func reschedule(bulkId: String, to sendAt: Date) async throws {
        throw CarrierReportsError.unreadable("this carrier holds no bulks")
    }
}
