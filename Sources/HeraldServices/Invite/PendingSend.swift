import Foundation
import HeraldAPI

/// One invitation request as it is about to be sent: journaled in the ledger (`pending_send`) in the
/// transaction that queues its rows and kept until the platform answered, so a send interrupted by a
/// crash can be replayed with the same correlators (the platform answers a replay with the earlier result).
struct PendingSend: Codable, Sendable, Hashable {
    var id: String
    var messageKey: String
    var messageText: String?
    var sender: String
    var destinations: [SendInvitationBody.Destination]
    /// Person of each destination, by correlator (the destination's messageId).
    var personIds: [String: Int64]
    /// The bulk whose failed numbers this send resends, when it is a resend.
    var resendOf: String?
    /// When the platform is to let it leave (held until then); nil: at once.
    var sendAt: Date?
    /// Why a recipient waits, by correlator (its quiet hours, in its own time); nil: none does.
    var notes: [String: String]?
    /// An email invitation's subject and text; nil: an SMS.
    var email: SendInvitationBody.Email?
    /// Every destination's text leaves as written (an answer); nil: an invitation.
    var asWritten: Bool?

    /// The request as sent at `now`: a replay after its time has come asks for no hold (the platform answers a
    /// replayed messageId with its earlier result anyway).
    func body(now: Date) -> SendInvitationBody {
        SendInvitationBody(messageKey: messageKey, sender: sender, destinations: destinations,
                           sendAt: sendAt.flatMap { $0 > now ? WireTime.text($0) : nil }, email: email, resendOf: resendOf,
                           asWritten: asWritten)
    }

    /// A destination's address as the ledger keeps it: E.164 with the plus, or the email address.
    func ledgerAddress(_ address: String) -> String {
        email == nil ? "+" + address : address
    }

    /// The same request restricted to these correlators.
    func restricted(to correlators: Set<String>) -> PendingSend {
        var copy = self
        copy.destinations = destinations.filter { $0.messageId.map(correlators.contains) ?? false }
        return copy
    }
}

extension PendingSend {
    func encoded() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    static func decode(_ payload: String) throws -> PendingSend {
        try JSONDecoder().decode(PendingSend.self, from: Data(payload.utf8))
    }
}
