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
}

/// A message the carrier holds whose next report is due.
public struct InFlightSMS: Sendable, Hashable {
    public var messageId: String
    public var bulkId: String
    public var acceptedAt: Date
    /// The status stored last.
    public var status: DeliveryStatus
}

/// What a carrier says of one message: its status now and when to ask again (nil: the status is final).
public struct CarrierReport: Sendable, Hashable {
    public var messageId: String
    public var status: DeliveryStatus
    public var nextCheckAt: Date?

    public init(messageId: String, status: DeliveryStatus, nextCheckAt: Date?) {
        self.messageId = messageId
        self.status = status
        self.nextCheckAt = nextCheckAt
    }
}

/// The network that really delivers messages. The engine hands it messages from its outbox once they are
/// committed and stores every report it gives as the message's status; nothing is computed when read.
/// The simulated carrier is one; Infobip's SMS API is another.
public protocol Carrier: Sendable {
    /// Takes messages; answers one report for each message it took (a message left out stays in the outbox).
    func submit(_ messages: [OutboundSMS], at now: Date) async throws -> [CarrierReport]
    /// Reports on messages whose next report was due at `now`.
    func reports(_ messages: [InFlightSMS], at now: Date) async throws -> [CarrierReport]
}
