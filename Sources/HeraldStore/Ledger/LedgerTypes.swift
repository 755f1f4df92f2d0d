import Foundation
import HeraldCore

/// A recipient written to the ledger before the platform is called.
public struct QueuedRecipient: Sendable, Hashable {
    /// E.164 ("+385981234567").
    public var msisdn: String
    public var personId: Int64?
    /// Client correlator; unique over the whole ledger.
    public var correlator: String

    public init(msisdn: String, personId: Int64?, correlator: String) {
        self.msisdn = msisdn
        self.personId = personId
        self.correlator = correlator
    }
}

/// The platform's answer for one queued recipient.
public struct SendOutcome: Sendable, Hashable {
    public var correlator: String
    public var messageId: String?
    public var status: DeliveryStatus
    /// Why the platform refused this recipient, when it did.
    public var error: String?
    /// The text as the platform sent it, when it says.
    public var text: String?

    public init(correlator: String, messageId: String?, status: DeliveryStatus, error: String? = nil, text: String? = nil) {
        self.text = text
        self.correlator = correlator
        self.messageId = messageId
        self.status = status
        self.error = error
    }
}

/// One delivery info from the platform: matched by messageId, else by address within the bulk.
public struct DeliveryUpdate: Sendable, Hashable {
    /// The address as the wire writes it ("385981234567", "+385…" or "tel:+385…").
    public var address: String
    public var messageId: String?
    public var status: DeliveryStatus
    /// What the carrier adds, when it says: price and currency, why it failed, whether for good.
    public var price: Double?
    public var currency: String?
    public var reason: String?
    public var permanent: Bool?
    /// When a held message leaves, when the platform says (it was moved).
    public var sendAt: Date?
    /// How often its own link was opened, when the platform says.
    public var clicks: Int?

    public init(address: String, messageId: String?, status: DeliveryStatus, price: Double? = nil, currency: String? = nil,
                reason: String? = nil, permanent: Bool? = nil, sendAt: Date? = nil, clicks: Int? = nil) {
        self.clicks = clicks
        self.sendAt = sendAt
        self.address = address
        self.messageId = messageId
        self.status = status
        self.price = price
        self.currency = currency
        self.reason = reason
        self.permanent = permanent
    }

    /// The address as the ledger keeps it: E.164 with a plus, or an email address as it is.
    public var e164: String {
        var a = address.trimmingCharacters(in: .whitespaces)
        if a.contains("@") { return a }
        if a.lowercased().hasPrefix("tel:") { a = String(a.dropFirst(4)) }
        return a.hasPrefix("+") ? a : "+" + a
    }
}

/// A status that changed in the ledger: what an event reports.
public struct StatusChange: Sendable, Hashable {
    public var invitationId: Int64
    public var msisdn: String
    public var personId: Int64?
    public var bulkId: String?
    public var messageId: String?
    public var from: DeliveryStatus
    public var to: DeliveryStatus
}

public enum LedgerError: Error, Sendable, CustomStringConvertible {
    case duplicateCorrelator(String)
    case unknownCorrelator(String)
    case unknownBulk(String)

    public var description: String {
        switch self {
        case .duplicateCorrelator(let c): return "correlator \(c) is already in the ledger: use a fresh correlator per recipient"
        case .unknownCorrelator(let c): return "no queued invitation has correlator \(c)"
        case .unknownBulk(let b): return "no bulk \(b) in the ledger"
        }
    }
}
