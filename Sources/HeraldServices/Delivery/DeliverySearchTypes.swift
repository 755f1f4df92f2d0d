import Foundation
import HeraldCore

/// A recipient a Deliveries query matched.
public struct DeliveryRecipient: Sendable, Hashable, Identifiable {
    /// The ledger row's id.
    public var id: Int64
    public var bulkId: String
    /// E.164, or an email address.
    public var number: String
    /// The person's name, when a contact has the number.
    public var name: String?
    /// ISO region of the number ("HR").
    public var country: String?
    public var status: DeliveryStatus
    /// Why it failed, as the carrier or the platform said.
    public var reason: String?
    /// Whether the carrier said it failed for good.
    public var permanentFailure: Bool
    public var price: Double?
    public var currency: String?
    public var attempts: Int
    public var clicks: Int
    public var sentAt: Date
    public var updatedAt: Date
    /// The bulk's sender ID.
    public var sender: String?
    /// Who sent the bulk (a sender name, a server key's name); nil when not known.
    public var sentBy: String?
    /// The text as sent to this recipient (else the bulk's text).
    public var text: String?
    public var personId: Int64?
    /// The platform's id of the message, nil while it is queued.
    public var messageId: String? = nil
}

/// A bulk holding recipients a query matched.
public struct DeliveryBulkMatch: Sendable, Hashable, Identifiable {
    public var bulkId: String
    public var createdAt: Date
    /// How many of its recipients the query matched.
    public var matched: Int
    public var recipientCount: Int
    public var id: String { bulkId }
}

/// What a query matched: how many recipients, in which bulks (newest first), and what the query cannot do.
public struct DeliveryMatches: Sendable, Hashable {
    public var query: DeliveryQuery
    public var total: Int
    public var bulks: [DeliveryBulkMatch]
    /// Said beside the answer (`network:` matches nothing).
    public var notes: [String]
}

/// What a breakdown groups by.
public enum DeliveryDimension: String, Sendable, Hashable, CaseIterable {
    case reason, country, sender

    /// The word of a group with no value ("no reason").
    public var missingWord: String {
        switch self {
        case .reason: return "no reason"
        case .country: return "no country"
        case .sender: return "no sender ID"
        }
    }
}

/// One group of a breakdown; also narrows a query to exactly its recipients (`recipients(_:group:…)`).
public struct DeliveryGroupKey: Sendable, Hashable {
    public var dimension: DeliveryDimension
    /// The reason, country or sender ID; nil for the recipients without one.
    public var value: String?

    public init(dimension: DeliveryDimension, value: String?) {
        self.dimension = dimension
        self.value = value
    }

    /// What a screen shows for the group (the value, or "no reason").
    public var label: String { value ?? dimension.missingWord }
}

/// One group of a breakdown.
public struct DeliveryBreakdownGroup: Sendable, Hashable, Identifiable {
    public var key: DeliveryGroupKey
    public var count: Int
    /// `count` over all matched recipients (0…1).
    public var share: Double
    public var firstSeen: Date
    public var lastSeen: Date
    /// How many are in a final status (no change is expected).
    public var final: Int
    /// How many the carrier said failed for good.
    public var permanent: Int
    /// How many a resend would send again.
    public var retryable: Int
    public var id: DeliveryGroupKey { key }

    /// Whether the platform calls the whole group final.
    public var isFinal: Bool { final == count }
}

/// What a query matched, grouped by one dimension, largest group first.
public struct DeliveryBreakdown: Sendable, Hashable {
    public var dimension: DeliveryDimension
    public var groups: [DeliveryBreakdownGroup]
    public var total: Int
}

/// The formats an export writes (see `DeliveryExportWriter`).
public enum DeliveryExportFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 4180: comma-separated, CRLF line ends, a header row.
    case csv
    /// Tab-separated, LF line ends, a header row.
    case tsv
    /// One JSON array of objects, one object a line.
    case json
}

/// What an export wrote.
public struct DeliveryExportSummary: Sendable, Hashable {
    public var rows: Int
    public var bytes: Int
    /// The file written; nil for standard output.
    public var path: String?
}

/// Why an export could not be written (nothing is left at the target).
public struct DeliveryExportError: Error, Sendable, Hashable, UserFacingError {
    public var path: String
    public var why: String

    public var userMessage: String { "cannot export to \(path): \(why)" }
}
