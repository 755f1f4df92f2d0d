/// Whether a number may be sent an invitation again.
///
/// Off by default: a number that is invited or pending is never invited again. A number whose
/// invitation failed (impossible, rejected, send-failed) may always be retried. With
/// `allowResendToInvited` on, invited numbers may be sent to again too; pending ones never are,
/// because their first invitation may still arrive. An answer to a reply (`.answer`) is a conversation, not an
/// invitation: it goes whatever the number's latest invitation says.
public struct ResendPolicy: Sendable, Hashable, Codable {
    public var allowResendToInvited: Bool
    /// Every number is sent to, whatever its latest status (a one-off answer in a conversation).
    public var sendsRegardless: Bool

    public init(allowResendToInvited: Bool = false) {
        self.allowResendToInvited = allowResendToInvited
        self.sendsRegardless = false
    }

    public static let `default` = ResendPolicy()
    /// The policy of an answer to a reply: a second answer while the first is still on its way is not refused.
    public static let answer: ResendPolicy = {
        var policy = ResendPolicy(allowResendToInvited: true)
        policy.sendsRegardless = true
        return policy
    }()

    enum CodingKeys: String, CodingKey { case allowResendToInvited, sendsRegardless }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        allowResendToInvited = try c.decode(Bool.self, forKey: .allowResendToInvited)
        sendsRegardless = try c.decodeIfPresent(Bool.self, forKey: .sendsRegardless) ?? false
    }

    public enum Decision: Sendable, Hashable {
        case send
        case skip(reason: String)
    }

    /// The decision for a number whose latest invitation has `status` (nil: never invited). A failure the
    /// carrier calls permanent is not retried unless resending is asked for. `address` words the reason as its channel
    /// does (an email that left was "sent").
    public func decide(latest status: DeliveryStatus?, permanentFailure: Bool = false, address: String = "") -> Decision {
        guard let status, !sendsRegardless else { return .send }
        if status.isImpossible {
            if permanentFailure, !allowResendToInvited {
                return .skip(reason: "the carrier says this number cannot receive it (a permanent failure)")
            }
            return .send
        }
        if status.isPending { return .skip(reason: "an invitation is already on its way (\(status.label(for: address)))") }
        if status.isInvited {
            return allowResendToInvited ? .send : .skip(reason: "already invited (\(status.label(for: address)))")
        }
        return .send
    }
}
