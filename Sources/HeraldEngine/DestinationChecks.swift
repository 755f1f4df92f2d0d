import Foundation
import HeraldAPI
import HeraldCore

/// The checks of one destination's own fields (address, clientData, sendAt). A value refused here rejects that
/// destination alone, with a reason naming the field, as an invalid number is rejected: one contact whose name came
/// with a control character from a card must not fail every other recipient of the request.
extension PlatformEngine {
    /// Why this destination alone cannot be sent to, nil when its own fields are acceptable.
    static func destinationProblem(_ d: SendInvitationBody.Destination, email: Bool, now: Date) -> String? {
        var input = WireInput()
        if !d.address.isEmpty {     // an empty one is rejected as "empty address" by the address check
            input.identifier("address", d.address, maxLength: email ? maxEmailAddressLength : 64)
        }
        for (j, value) in (d.clientData ?? []).enumerated() {
            let name = j < ClientField.allCases.count ? " (\(ClientField.allCases[j].rawValue))" : ""
            input.text("clientData[\(j)]\(name)", value, maxLength: SendInvitationBody.Destination.maxClientDataLength)
        }
        _ = sendTime(d.sendAt, field: "sendAt", now: now, input: &input)
        guard !input.problems.isEmpty else { return nil }
        return input.problems.sorted { $0.key < $1.key }
            .map { "\($0.key): \($0.value.joined(separator: ", "))" }
            .joined(separator: "; ")
    }

    /// A refused address as it is stored and answered: without control characters and cut short, so the rejection
    /// itself carries nothing a terminal or log would interpret.
    static func shownAddress(_ address: String) -> String {
        let safe = TerminalSafeText.sanitize(address)
        return safe.count > 64 ? String(safe.prefix(64)) + "…" : safe
    }
}
