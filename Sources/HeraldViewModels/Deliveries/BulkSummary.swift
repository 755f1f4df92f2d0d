import Foundation
import HeraldCore
import HeraldServices
import HeraldStore

/// Which recipients the Deliveries pane shows.
public enum DeliveryFilter: String, Sendable, CaseIterable, Hashable {
    case all, pending, invited, impossible

    public func matches(_ status: DeliveryStatus) -> Bool {
        switch self {
        case .all: return true
        case .pending: return status.isPending
        case .invited: return status.isInvited
        case .impossible: return status.isImpossible
        }
    }

    /// The next filter in the cycle all → pending → invited → impossible → all.
    public var next: DeliveryFilter {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// A cell of the Deliveries table that can light up when it changes.
public enum DeliveryColumn: String, Sendable, Hashable, CaseIterable {
    case row, invited, pending, impossible, status
}

/// One bulk as the Deliveries table shows it.
public struct BulkSummary: Sendable, Hashable {
    public let bulkId: String
    public let createdAt: Date
    /// The message text or key, sanitised; "" when unknown.
    public let message: String
    public let recipients: Int
    public let invited: Int
    public let pending: Int
    public let impossible: Int
    /// Delivery-info passes already made.
    public let passesDone: Int

    public init(record: BulkRecord, statuses: [DeliveryStatus]) {
        bulkId = TerminalSafeText.sanitize(record.bulkId)
        createdAt = record.createdAt
        message = TerminalSafeText.sanitize(record.messageText ?? record.messageKey.map { "[\($0)]" } ?? "")
        recipients = max(record.recipientCount, statuses.count)
        invited = statuses.filter(\.isInvited).count
        pending = statuses.filter(\.isPending).count
        impossible = statuses.filter(\.isImpossible).count
        passesDone = record.passesDone
    }

    /// Recipients counted under `filter`.
    public func count(_ filter: DeliveryFilter) -> Int {
        switch filter {
        case .all: return recipients
        case .pending: return pending
        case .invited: return invited
        case .impossible: return impossible
        }
    }

    /// Recipients with none of the three states (e.g. DeliveredToNetwork waiting for the handset).
    public var other: Int { max(0, recipients - invited - pending - impossible) }
}

/// One recipient of the open bulk.
public struct RecipientRow: Sendable, Hashable {
    public let invitationId: Int64?
    public let name: String
    public let number: String
    public let status: DeliveryStatus
    public let updatedAt: Date
    public let error: String?

    public init(_ recipient: BulkRecipient) {
        let inv = recipient.invitation
        invitationId = inv.id
        name = TerminalSafeText.sanitize(recipient.name ?? "—")
        number = TerminalSafeText.sanitize(inv.msisdn)
        status = inv.status
        updatedAt = inv.updatedAt
        error = inv.error.map { TerminalSafeText.sanitize($0) }
    }
}

/// The resend waiting for the user's yes.
public struct ResendConfirmation: Sendable, Hashable {
    public let bulkId: String
    /// Failed numbers (E.164) to send to again.
    public let numbers: [String]
}
