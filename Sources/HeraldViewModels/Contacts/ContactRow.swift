import HeraldCore
import HeraldServices

/// How a person's invitation state reads at a glance: "not invited", "pending", "invited 1/2"…
nonisolated public struct InvitationBadge: Sendable, Hashable {
    public let state: InvitationState
    /// Numbers in that state, and numbers the person has (shown as "1/2" when they differ).
    public let count: Int
    public let total: Int

    /// True when the person has phone numbers, valid or not.
    public let hasPhones: Bool

    public init(summary: PersonInvitationSummary, hasPhones: Bool = true) {
        self.hasPhones = hasPhones
        state = summary.state
        total = summary.numbers.count
        let statuses = summary.statusByNumber.values
        switch summary.state {
        case .invited: count = statuses.filter(\.isInvited).count
        case .pending: count = statuses.filter(\.isPending).count
        case .impossible: count = statuses.filter(\.isImpossible).count
        case .notInvited: count = summary.notYetInvitedCount
        }
    }

    public var text: String {
        if total == 0 { return hasPhones ? "no valid number" : "no number" }
        return count == total ? state.word : "\(state.word) \(count)/\(total)"
    }
}

/// One row of the contacts list: a suggestion on top, or a person of the A–Z list.
nonisolated public struct ContactRow: Sendable, Hashable {
    public let person: Person
    public let summary: PersonInvitationSummary
    public let badge: InvitationBadge
    /// Section letter of the A–Z list ("#" for names not starting with a letter); nil for suggestions.
    public let section: String?
    /// True on the first row of its section (the letter is drawn there).
    public let startsSection: Bool
    /// Why the person is suggested, for rows of the Suggested block.
    public let reasons: [String]?
    /// Name, sanitised for the terminal.
    public let name: String
    /// Grapheme ranges of `name` that match the search.
    public let matches: [Range<Int>]
    /// The number an invitation would go to (a valid mobile first), formatted for reading ("+385 91 234 5678").
    public let shownNumber: String

    public var personId: Int64? { person.id }
}
