import Foundation
import HeraldCore

/// Infobip's statuses in Herald's vocabulary, decided by `groupId` (or `groupName` when the id is absent),
/// never by `name` alone: names are many and change; groups are few and documented.
public enum InfobipStatusMapping {
    /// Group ids: 0 ACCEPTED, 1 PENDING, 2 UNDELIVERABLE, 3 DELIVERED, 4 EXPIRED, 5 REJECTED.
    enum Group: Int {
        case accepted = 0, pending = 1, undeliverable = 2, delivered = 3, expired = 4, rejected = 5

        init?(status: InfobipStatus) {
            if let id = status.groupId, let group = Group(rawValue: id) { self = group; return }
            switch status.groupName?.uppercased() {
            case "ACCEPTED": self = .accepted
            case "PENDING": self = .pending
            case "UNDELIVERABLE": self = .undeliverable
            case "DELIVERED": self = .delivered
            case "EXPIRED": self = .expired
            case "REJECTED": self = .rejected
            default: return nil
            }
        }
    }

    /// Status id of DELIVERED_TO_OPERATOR (the network took it).
    static let deliveredToOperator = 2
    /// Status id of DELIVERED_TO_HANDSET.
    static let deliveredToHandset = 5

    /// Herald's status for an Infobip status: PENDING and ACCEPTED wait; DELIVERED id 2 reached the network and
    /// id 5 the handset; UNDELIVERABLE, EXPIRED and REJECTED are impossible; anything else is uncertain.
    public static func deliveryStatus(_ status: InfobipStatus?) -> DeliveryStatus {
        guard let status, let group = Group(status: status) else { return .deliveryUncertain }
        switch group {
        case .accepted, .pending: return .messageWaiting
        case .delivered:
            switch status.id {
            case deliveredToHandset: return .deliveredToTerminal
            case deliveredToOperator: return .deliveredToNetwork
            default: return .deliveryUncertain
            }
        case .undeliverable, .expired, .rejected: return .deliveryImpossible
        }
    }

    /// Whether Infobip will say more of a message in this status (it is still on its way, or only at the operator).
    public static func isFinal(_ status: DeliveryStatus) -> Bool {
        status != .messageWaiting && status != .deliveredToNetwork
    }

    /// Why a message failed, in Infobip's words: the error's description, else the status's.
    public static func reason(status: InfobipStatus?, error: InfobipReportError?) -> String? {
        if let error, error.groupId != 0 || error.id != 0, let text = error.description ?? error.name { return text }
        guard deliveryStatus(status).isImpossible else { return nil }
        return status?.description ?? status?.name
    }
}
