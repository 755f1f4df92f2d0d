import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore

/// Something a service did that a screen or `herald watch` may want to show.
public enum HeraldEvent: Sendable, Hashable {
    /// The ledger changed (in this process or another): recipients that entered a bulk or changed
    /// status, and bulk records that changed, between two sequence numbers of the change feed.
    case ledgerChanged(LedgerChange)
    /// The address book changed (an import or an edit, here or in another process).
    case contactsChanged(generation: Int64)
    /// An address book was synced, or a conflict settled: how the books stand changed.
    case booksChanged
    /// A bulk of invitations was accepted by the platform.
    case bulkSent(BulkSent)
    /// A page of a user's inbox arrived.
    case inboxLoaded(InboxLoaded)
    /// The platform told of a new message in a user's inbox (a server's event stream).
    case inboxArrived(externalUserId: String)
    /// Messages of a user's inbox were marked seen (or the mark was rolled back).
    case inboxSeenChanged(InboxSeenChange)
    /// Where the delivery tracker's schedule stands.
    case trackerState(TrackerState)
    /// A short message for the person at the keyboard.
    case toast(level: ToastLevel, text: String)
    /// How the link to a remote platform (a Herald server) stands.
    case platformLink(PlatformLink)
    /// A reply arrived, or replies were marked seen (here, in another process, or on a server).
    case repliesChanged(RepliesChange)
}

/// How the link to a remote platform stands, for the status bar.
public enum PlatformLink: Sendable, Hashable {
    case connected
    /// Lost; the next attempt is in `retryIn` seconds.
    case reconnecting(retryIn: Double, reason: String)
    /// Cannot be reached (sends stay queued until it is back).
    case offline(reason: String)

    init(_ state: PlatformLinkState) {
        switch state {
        case .connected: self = .connected
        case .reconnecting(let seconds, let reason): self = .reconnecting(retryIn: seconds, reason: reason)
        case .offline(let reason): self = .offline(reason: reason)
        }
    }

    /// A few words for the status bar.
    public var label: String {
        switch self {
        case .connected: return "connected"
        case .reconnecting(let seconds, _): return "reconnecting in \(Int(seconds.rounded(.up)))s"
        case .offline: return "offline"
        }
    }
}

/// One batch of the change feed: everything the ledger changed after `previous` up to `sequence`.
/// A screen that holds a snapshot taken at `previous` (or has folded every batch up to it) may fold
/// this one; otherwise it reads a fresh snapshot.
public struct LedgerChange: Sendable, Hashable {
    public var previous: Int64
    public var sequence: Int64
    public var deliveries: [DeliveryChange]
    /// Bulk records inserted or changed (passes, next poll), in their present state.
    public var bulks: [BulkRecord]

    public init(previous: Int64, sequence: Int64, deliveries: [DeliveryChange], bulks: [BulkRecord]) {
        self.previous = previous
        self.sequence = sequence
        self.deliveries = deliveries
        self.bulks = bulks
    }
}

/// A recipient's status moving from one value to another within a bulk.
public struct DeliveryChange: Sendable, Hashable {
    public var bulkId: String
    /// The ledger row, when known.
    public var invitationId: Int64?
    /// MSISDN of the recipient as the wire writes it.
    public var address: String
    public var messageId: String?
    public var personId: Int64?
    /// The status before; nil when the recipient just entered the bulk.
    public var from: DeliveryStatus?
    public var to: DeliveryStatus
    public var at: Date

    public init(bulkId: String, invitationId: Int64? = nil, address: String, messageId: String?, personId: Int64?,
                from: DeliveryStatus?, to: DeliveryStatus, at: Date) {
        self.bulkId = bulkId
        self.invitationId = invitationId
        self.address = address
        self.messageId = messageId
        self.personId = personId
        self.from = from
        self.to = to
        self.at = at
    }
}

/// A bulk the platform accepted.
public struct BulkSent: Sendable, Hashable {
    public var bulkId: String
    /// Recipients the platform accepted.
    public var accepted: Int
    /// Recipients refused (invalid number…) or skipped by the resend policy.
    public var refused: Int
    public var at: Date
    /// When the platform lets it leave, when it holds it (the undo window, a scheduled send).
    public var sendAt: Date?

    public init(bulkId: String, accepted: Int, refused: Int, at: Date, sendAt: Date? = nil) {
        self.sendAt = sendAt
        self.bulkId = bulkId
        self.accepted = accepted
        self.refused = refused
        self.at = at
    }
}

/// A page of an inbox and its counters.
public struct InboxLoaded: Sendable, Hashable {
    public var externalUserId: String
    public var countTotal: Int
    public var countUnread: Int
    /// Messages in this page.
    public var messageCount: Int
    /// Whether this page continues an earlier one (paging) rather than replacing it.
    public var isNextPage: Bool

    public init(externalUserId: String, countTotal: Int, countUnread: Int, messageCount: Int, isNextPage: Bool) {
        self.externalUserId = externalUserId
        self.countTotal = countTotal
        self.countUnread = countUnread
        self.messageCount = messageCount
        self.isNextPage = isNextPage
    }
}

/// Messages whose seen flag changed.
public struct InboxSeenChange: Sendable, Hashable {
    public var externalUserId: String
    public var messageIds: [String]
    /// True when marked seen; false when a failed mark was rolled back.
    public var seen: Bool

    public init(externalUserId: String, messageIds: [String], seen: Bool) {
        self.externalUserId = externalUserId
        self.messageIds = messageIds
        self.seen = seen
    }
}

/// The delivery tracker's schedule.
public struct TrackerState: Sendable, Hashable {
    /// One bulk still being watched.
    public struct Bulk: Sendable, Hashable {
        public var bulkId: String
        public var passesLeft: Int
        /// Recipients in the pending state (as the Deliveries pane counts them).
        public var pendingRecipients: Int

        public init(bulkId: String, passesLeft: Int, pendingRecipients: Int) {
            self.bulkId = bulkId
            self.passesLeft = passesLeft
            self.pendingRecipients = pendingRecipients
        }
    }

    /// When the next pass runs; nil when nothing is scheduled.
    public var nextPassAt: Date?
    public var bulks: [Bulk]
    /// Set while the tracker backs off after errors (or a `Retry-After`).
    public var backingOffUntil: Date?
    /// Invitations written but not yet answered by the platform (queued while it was away): pending too.
    public var queuedRecipients: Int

    public init(nextPassAt: Date?, bulks: [Bulk], backingOffUntil: Date? = nil, queuedRecipients: Int = 0) {
        self.nextPassAt = nextPassAt
        self.bulks = bulks
        self.backingOffUntil = backingOffUntil
        self.queuedRecipients = queuedRecipients
    }

    /// Everything pending: recipients of the bulks watched, and those still queued.
    public var pendingRecipients: Int { bulks.reduce(0) { $0 + $1.pendingRecipients } + queuedRecipients }
}

/// How loud a toast is.
public enum ToastLevel: String, Sendable, Hashable, CaseIterable {
    case info
    case success
    case warning
    case error
}
