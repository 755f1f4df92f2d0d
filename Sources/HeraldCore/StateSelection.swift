/// Whom "select by state" picks in the address book (`S`, `:select STATE`), in the words of
/// `DeliveryState`: a person counts by the numbers an invitation would go to.
public enum StateSelection: String, CaseIterable, Sendable, Hashable {
    /// Not invited yet, with a number that can take an SMS and has never been sent one.
    case notInvited = "not-invited"
    case pending
    case invited
    case failed

    /// Reads a name as typed: `not-invited`, `not invited`, `notinvited`, `pending`, `invited`, `failed`
    /// (or `impossible`, the old word for failed); nil for anything else.
    public init?(name: String) {
        let key = name.lowercased().filter { $0.isLetter }
        switch key {
        case "notinvited": self = .notInvited
        case "pending": self = .pending
        case "invited": self = .invited
        case "failed", "impossible": self = .failed
        default: return nil
        }
    }

    /// How a toast names the people picked: "not invited with a number that takes SMS".
    public var phrase: String {
        switch self {
        case .notInvited: return "not invited with a number that takes SMS"
        case .pending: return DeliveryState.pending.word
        case .invited: return DeliveryState.invited.word
        case .failed: return DeliveryState.failed.word
        }
    }

    /// True when `person`, whose invitations sum up to `summary`, is one to pick.
    public func matches(_ person: Person, _ summary: PersonInvitationSummary) -> Bool {
        switch self {
        case .notInvited:
            return summary.state == .notInvited && person.smsPlan.numbers.contains { summary.statusByNumber[$0] == nil }
        case .pending: return summary.state == .pending
        case .invited: return summary.state == .invited
        case .failed: return summary.state == .impossible
        }
    }
}
