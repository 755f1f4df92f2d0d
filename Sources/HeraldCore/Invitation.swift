import Foundation

/// One invitation to one number: a row of the client's ledger.
public struct InvitationInfo: Sendable, Hashable, Codable {
    public var id: Int64?
    /// E.164 of the recipient ("+385981234567").
    public var msisdn: String
    public var personId: Int64?
    public var bulkId: String?
    public var messageId: String?
    /// Client correlator written before the platform is called; reconciles a send after a crash.
    public var correlator: String
    public var status: DeliveryStatus
    public var createdAt: Date
    public var updatedAt: Date
    /// How many times this number was sent to under this correlator's lineage.
    public var attempts: Int
    /// Why a send failed or was rejected, or why the carrier could not deliver it.
    public var error: String?
    /// What the carrier charged for it, when it says (Infobip does), and in which currency.
    public var price: Double?
    public var currency: String?
    /// The carrier says the failure is for good: the resend policy does not retry it.
    public var permanentFailure: Bool
    /// The text as the platform sent it (fields filled, link made), when it said.
    public var text: String?
    /// How often its own link was opened, as the platform last said.
    public var clicks: Int

    public init(id: Int64? = nil, msisdn: String, personId: Int64?, bulkId: String? = nil, messageId: String? = nil,
                correlator: String, status: DeliveryStatus, createdAt: Date, updatedAt: Date,
                attempts: Int = 1, error: String? = nil, price: Double? = nil, currency: String? = nil,
                permanentFailure: Bool = false, text: String? = nil, clicks: Int = 0) {
        self.clicks = clicks
        self.text = text
        self.price = price
        self.currency = currency
        self.permanentFailure = permanentFailure
        self.id = id
        self.msisdn = msisdn
        self.personId = personId
        self.bulkId = bulkId
        self.messageId = messageId
        self.correlator = correlator
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.attempts = attempts
        self.error = error
    }
}

/// The invitation state of one person, summarised over all their numbers.
/// Duplicate numbers of one person count once; for each number the latest invitation counts.
public struct PersonInvitationSummary: Sendable, Hashable {
    /// Latest status per distinct number that has been sent to.
    public let statusByNumber: [String: DeliveryStatus]
    /// Distinct valid numbers of the person.
    public let numbers: [String]
    /// Every bulkId any invitation of this person belongs to, oldest first, no repeats.
    public let bulkIds: [String]

    public init(person: Person, invitations: [InvitationInfo]) {
        let numbers = person.distinctNumbers
        self.numbers = numbers
        let numberSet = Set(numbers)
        var latest: [String: InvitationInfo] = [:]
        var bulks: [String] = []
        var seenBulks = Set<String>()
        for inv in invitations.sorted(by: { ($0.createdAt, $0.id ?? 0) < ($1.createdAt, $1.id ?? 0) }) {
            guard numberSet.contains(inv.msisdn) || (person.id != nil && inv.personId == person.id) else { continue }
            latest[inv.msisdn] = inv
            if let b = inv.bulkId, seenBulks.insert(b).inserted { bulks.append(b) }
        }
        self.statusByNumber = latest.mapValues(\.status)
        self.bulkIds = bulks
    }

    /// At least one number reached the person or their network.
    public var isInvited: Bool { statusByNumber.values.contains { $0.isInvited } }
    /// At least one number is still on its way.
    public var isPending: Bool { statusByNumber.values.contains { $0.isPending } }
    /// Every number that was sent to is in a final state (and at least one was sent to).
    public var isFinal: Bool { !statusByNumber.isEmpty && statusByNumber.values.allSatisfy { $0.isFinal } }
    /// Every number sent to ended impossible.
    public var isImpossible: Bool { !statusByNumber.isEmpty && statusByNumber.values.allSatisfy { $0.isImpossible } }
    /// Numbers that have never been sent an invitation.
    public var notYetInvited: [String] { numbers.filter { statusByNumber[$0] == nil } }
    public var notYetInvitedCount: Int { notYetInvited.count }

    /// A one-word state for lists.
    public var state: InvitationState {
        if statusByNumber.isEmpty { return .notInvited }
        if isInvited { return .invited }
        if isPending { return .pending }
        if isImpossible { return .impossible }
        return .notInvited
    }
}

/// What a list shows for a person at a glance.
public enum InvitationState: String, Sendable, Hashable, Codable {
    case notInvited = "not invited"
    case pending
    case invited
    case impossible

    /// The word shown, from the one vocabulary of `DeliveryState` ("failed", not "impossible"); the raw value
    /// stays as JSON output has always written it.
    public var word: String {
        switch self {
        case .notInvited: return "not invited"
        case .pending: return DeliveryState.pending.word
        case .invited: return DeliveryState.invited.word
        case .impossible: return DeliveryState.failed.word
        }
    }
}
