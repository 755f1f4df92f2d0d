import Foundation
import HeraldCore
import HeraldServices

/// Which recipients the Deliveries pane shows.
nonisolated public enum DeliveryFilter: String, Sendable, CaseIterable, Hashable {
    case all, pending, invited, failed

    /// The filter named (`impossible`, the old word, still means failed); nil for an unknown name.
    public init?(name: String) {
        let word = name.lowercased()
        self.init(rawValue: word == "impossible" ? "failed" : word)
    }

    public func matches(_ status: DeliveryStatus) -> Bool {
        switch self {
        case .all: return true
        case .pending: return status.state == .pending
        case .invited: return status.state == .invited
        case .failed: return status.state == .failed
        }
    }

    /// The next filter in the cycle all → pending → invited → failed → all.
    public var next: DeliveryFilter {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }
}

/// A cell of the Deliveries table that can light up when it changes.
nonisolated public enum DeliveryColumn: String, Sendable, Hashable, CaseIterable {
    case row, invited, pending, impossible, status
}

extension DeliveryColumn {
    /// The columns that count recipients.
    static let counted: [DeliveryColumn] = [.invited, .pending, .impossible]
}

/// One bulk as the Deliveries table shows it: its record and how many recipients stand in each
/// status, counted once (a grouped query) and then moved along by the change feed.
nonisolated public struct BulkSummary: Sendable, Hashable {
    public let bulkId: String
    public let createdAt: Date
    /// The message text or key, sanitised; "" when unknown.
    public let message: String
    /// Recipients per status.
    public private(set) var counts: [DeliveryStatus: Int]
    private let recordedRecipients: Int
    /// Delivery-info passes already made.
    public let passesDone: Int
    /// False for a colleague's bulk (on a Herald server).
    public let sentHere: Bool
    /// The bulk this one resent the failed numbers of.
    public let resendOf: String?
    /// When a held bulk leaves, and the words for it ("held until 09:00", "held until 12-01 09:00").
    public let sendAt: Date?
    private let heldLabel: String?
    /// What the send estimated it would cost ("0.1 EUR"), when the send kept an estimate.
    public let estimate: String?

    public init(_ bulk: BulkCounts) {
        let record = bulk.record
        bulkId = TerminalSafeText.sanitize(record.bulkId)
        createdAt = record.createdAt
        message = TerminalSafeText.sanitize(record.messageText ?? record.messageKey.map { "[\($0)]" } ?? "")
        counts = bulk.counts.filter { $0.value > 0 }
        recordedRecipients = record.recipientCount
        passesDone = record.passesDone
        sentHere = record.sentHere
        resendOf = record.resendOf.map { TerminalSafeText.sanitize($0) }
        sendAt = record.sendAt
        heldLabel = record.sendAt.map { "held until " + WallClock.timeOrDay($0) }
        estimate = record.estimate.map { TerminalSafeText.sanitize("\(PriceEstimate.format($0)) \(record.estimateCurrency ?? "")")
            .trimmingCharacters(in: .whitespaces) }
    }

    /// Recipients the platform still holds (the undo window, a scheduled send).
    public var held: Int { counts[.scheduled] ?? 0 }

    /// The message column: a colleague's bulk says so first, a resend names the bulk it resent.
    public var shownMessage: String {
        (held > 0 ? heldLabel.map { $0 + " · " } ?? "" : "") + (sentHere ? "" : "team · ")
            + (resendOf.map { "↻ \($0.prefix(8)) · " } ?? "") + message
    }

    public var recipients: Int { max(recordedRecipients, counts.values.reduce(0, +)) }
    public var invited: Int { total(where: \.isInvited) }
    public var pending: Int { total(where: \.isPending) }
    public var impossible: Int { total(where: \.isImpossible) }

    private func total(where predicate: (DeliveryStatus) -> Bool) -> Int {
        counts.reduce(0) { predicate($1.key) ? $0 + $1.value : $0 }
    }

    /// The same bulk with a newer record (passes done, recipient count).
    func with(record: BulkRecord) -> BulkSummary {
        var copy = BulkSummary(BulkCounts(record: record, counts: counts))
        copy.counts = counts
        return copy
    }

    /// The same bulk with one recipient moved from one status to another (`from` nil: a new recipient).
    func moving(from: DeliveryStatus?, to: DeliveryStatus) -> BulkSummary {
        var copy = self
        if let from, let n = copy.counts[from] { copy.counts[from] = n > 1 ? n - 1 : nil }
        copy.counts[to, default: 0] += 1
        return copy
    }

    /// Recipients counted under `filter`.
    public func count(_ filter: DeliveryFilter) -> Int {
        switch filter {
        case .all: return recipients
        case .pending: return pending
        case .invited: return invited
        case .failed: return impossible
        }
    }

    /// Recipients counted in a column of the table (0 for columns that do not count).
    func count(_ column: DeliveryColumn) -> Int {
        switch column {
        case .invited: return invited
        case .pending: return pending
        case .impossible: return impossible
        case .row, .status: return 0
        }
    }

    /// Recipients with none of the three states (e.g. DeliveredToNetwork waiting for the handset).
    public var other: Int { max(0, recipients - invited - pending - impossible) }
}

/// One recipient of the open bulk.
nonisolated public struct RecipientRow: Sendable, Hashable {
    public let invitationId: Int64?
    public let name: String
    public let number: String
    public private(set) var status: DeliveryStatus
    public private(set) var updatedAt: Date
    public let error: String?
    /// The platform's id of the message, nil while it is queued.
    public let messageId: String?
    /// What the carrier charged ("0.0075 EUR"), when it names a currency (Infobip does; the simulation does not).
    public let price: String?
    /// The same as an amount and its currency, for the bulk's reported total.
    public let charged: Double?
    public let currency: String?
    /// Times this number was sent to, and when it was first queued.
    public let attempts: Int
    public let queuedAt: Date
    /// The carrier said the failure is for good (the resend policy does not retry it).
    public let permanentFailure: Bool
    /// The text as the platform sent it, when it said (sanitised).
    public let text: String?
    /// How often its own link was opened.
    public let clicks: Int

    /// The status as the table shows it, with the clicks when its link was opened ("delivered · 2 clicks").
    public var statusText: String {
        status.label(for: number) + (clicks > 0 ? " · \(counted(clicks, "click"))" : "")
    }

    /// The same recipient in a new status.
    func with(status: DeliveryStatus, at: Date) -> RecipientRow {
        var copy = self
        copy.status = status
        copy.updatedAt = at
        return copy
    }

    public init(_ recipient: BulkRecipient) {
        let inv = recipient.invitation
        self.init(id: inv.id, name: recipient.name, number: inv.msisdn, status: inv.status, updatedAt: inv.updatedAt,
                  reason: inv.error, messageId: inv.messageId, attempts: inv.attempts, queuedAt: inv.createdAt,
                  permanentFailure: inv.permanentFailure, text: inv.text, clicks: inv.clicks, price: inv.price,
                  currency: inv.currency)
    }

    /// A recipient a Deliveries query matched (a breakdown group's).
    public init(_ r: DeliveryRecipient) {
        self.init(id: r.id, name: r.name, number: r.number, status: r.status, updatedAt: r.updatedAt, reason: r.reason,
                  messageId: r.messageId, attempts: r.attempts, queuedAt: r.sentAt, permanentFailure: r.permanentFailure,
                  text: r.text, clicks: r.clicks, price: r.price, currency: r.currency)
    }

    /// One row from a ledger row's fields, every text from outside sanitised.
    private init(id: Int64?, name: String?, number: String, status: DeliveryStatus, updatedAt: Date, reason: String?,
                 messageId: String?, attempts: Int, queuedAt: Date, permanentFailure: Bool, text: String?, clicks: Int,
                 price amount: Double?, currency: String?) {
        invitationId = id
        self.name = TerminalSafeText.sanitize(name ?? "—")
        self.number = TerminalSafeText.sanitize(number)
        self.status = status
        self.updatedAt = updatedAt
        error = reason.map { TerminalSafeText.sanitize($0) }
        self.messageId = messageId
        self.attempts = attempts
        self.queuedAt = queuedAt
        self.permanentFailure = permanentFailure
        self.text = text.map { TerminalSafeText.sanitize($0) }
        self.clicks = clicks
        price = Self.price(amount, currency)
        charged = currency == nil ? nil : amount
        self.currency = currency.map { TerminalSafeText.sanitize($0) }
    }

    /// "0.0075 EUR", when the carrier named a currency.
    static func price(_ amount: Double?, _ currency: String?) -> String? {
        currency.flatMap { currency in amount.map { TerminalSafeText.sanitize("\(($0 * 1_000_000).rounded() / 1_000_000) \(currency)") } }
    }
}

extension [RecipientRow] {
    /// What the carrier reported charging for these recipients, per currency ("0.015 EUR"); nil when it reported
    /// nothing.
    public var reportedCost: String? {
        var totals: [String: Double] = [:]
        for r in self { if let amount = r.charged, let currency = r.currency { totals[currency, default: 0] += amount } }
        guard !totals.isEmpty else { return nil }
        return totals.sorted { $0.key < $1.key }.map { "\(PriceEstimate.format($0.value)) \($0.key)" }.joined(separator: " + ")
    }
}

/// The resend waiting for the user's yes.
nonisolated public struct ResendConfirmation: Sendable, Hashable {
    /// The bulks the failed numbers come from.
    public let bulkIds: [String]
    /// Failed numbers (E.164) to send to again.
    public let numbers: [String]
    /// Where they failed, for the question ("in bulk 1a2b3c4d", "among 2 selected recipients").
    public let what: String
}
