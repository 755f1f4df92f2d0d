import Foundation

/// Delivery state of one invitation to one number.
///
/// The first five cases are the wire statuses of the OneAPI delivery infos; `Scheduled` and `Cancelled` are Herald's
/// wire extension for held sends; the others are local states the client keeps in its ledger.
public enum DeliveryStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case deliveredToTerminal = "DeliveredToTerminal"
    case deliveredToNetwork = "DeliveredToNetwork"
    case deliveryUncertain = "DeliveryUncertain"
    case deliveryImpossible = "DeliveryImpossible"
    case messageWaiting = "MessageWaiting"
    /// Held by the platform until its send time (the undo window, a scheduled send, quiet hours).
    case scheduled = "Scheduled"
    /// Taken back before it left (during the undo window or while scheduled); may be invited again.
    case cancelled = "Cancelled"
    /// Written to the ledger before the platform is called.
    case queued = "Queued"
    /// The platform refused this destination (invalid number, cannot receive SMS…).
    case rejected = "Rejected"
    /// The call to the platform failed; the row keeps the reason and may be retried.
    case sendFailed = "SendFailed"
    /// A status we do not know; treated as pending.
    case unknown = "Unknown"

    /// The statuses that travel on the wire.
    public static let wireStatuses: [DeliveryStatus] = [
        .deliveredToTerminal, .deliveredToNetwork, .deliveryUncertain, .deliveryImpossible, .messageWaiting, .scheduled,
        .cancelled,
    ]

    /// Parses a status as it appears on the wire or in the ledger. Accepts the historical
    /// misspelling `DeleveredToNetwork`; anything unrecognised is `.unknown`.
    public init(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == "DeleveredToNetwork" { self = .deliveredToNetwork; return }
        if let exact = DeliveryStatus(rawValue: trimmed) { self = exact; return }
        let squashed = trimmed.lowercased().replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "-", with: "")
        if squashed == "deleveredtonetwork" { self = .deliveredToNetwork; return }
        self = DeliveryStatus.allCases.first { $0.rawValue.lowercased() == squashed } ?? .unknown
    }

    /// Reached the person or their network: DeliveredToTerminal, DeliveredToNetwork or DeliveryUncertain.
    public var isInvited: Bool {
        switch self {
        case .deliveredToTerminal, .deliveredToNetwork, .deliveryUncertain: return true
        default: return false
        }
    }

    /// Still on its way: queued locally, held until its time, MessageWaiting, or unknown.
    public var isPending: Bool {
        switch self {
        case .messageWaiting, .unknown, .queued, .scheduled: return true
        default: return false
        }
    }

    /// Will never arrive: DeliveryImpossible, or refused / failed locally.
    public var isImpossible: Bool {
        switch self {
        case .deliveryImpossible, .rejected, .sendFailed: return true
        default: return false
        }
    }

    /// No further change is expected from the carrier.
    /// DeliveredToNetwork is not final: the carrier may still report the handset.
    public var isFinal: Bool {
        switch self {
        case .deliveredToTerminal, .deliveryUncertain, .deliveryImpossible, .rejected, .sendFailed, .cancelled: return true
        default: return false
        }
    }

    /// The label for an invitation to `address`: an email its mail server took was "sent" (nothing reports further).
    public func label(for address: String) -> String {
        address.contains("@") && self == .deliveredToNetwork ? "sent" : label
    }

    /// Whether no further change is expected for an invitation to `address`: an email its mail server took is
    /// settled, where an SMS at the network may still reach the handset.
    public func isFinal(for address: String) -> Bool {
        isFinal || (address.contains("@") && self == .deliveredToNetwork)
    }

    /// Whether Deliveries' resend offers an invitation to `address` again: one that failed, and an email whose hand-over
    /// was cut short (it may have been sent: only a resend asked for sends it again).
    public func isResendable(for address: String) -> Bool {
        isImpossible || (address.contains("@") && self == .deliveryUncertain)
    }

    /// Whether this status appears on the wire (local states never do).
    public var isWireStatus: Bool { DeliveryStatus.wireStatuses.contains(self) }

    /// Short lowercase label for people ("delivered", "waiting"…).
    public var label: String {
        switch self {
        case .deliveredToTerminal: return "delivered"
        case .deliveredToNetwork: return "at network"
        case .deliveryUncertain: return "uncertain"
        case .deliveryImpossible: return "failed"
        case .messageWaiting: return "waiting"
        case .scheduled: return "scheduled"
        case .cancelled: return "cancelled"
        case .queued: return "queued"
        case .rejected: return "rejected"
        case .sendFailed: return "send failed"
        case .unknown: return "unknown"
        }
    }
}

/// The words every pane, count and filter uses for where an invitation stands: **invited** (it reached the
/// person or their network), **pending** (on its way), **failed** (it will not arrive) and **cancelled** (taken back
/// before it left: as if never sent). Each status belongs to exactly one; its own label only says more within it
/// ("at network", "send failed", "scheduled").
public enum DeliveryState: String, Sendable, Hashable, CaseIterable, Codable {
    case invited, pending, failed, cancelled

    /// The word shown ("invited", "pending", "failed").
    public var word: String { rawValue }
}

extension DeliveryStatus {
    /// Where this status stands in the one vocabulary.
    public var state: DeliveryState {
        if isInvited { return .invited }
        if isImpossible { return .failed }
        if self == .cancelled { return .cancelled }
        return .pending
    }
}
