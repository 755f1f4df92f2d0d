import Foundation
import HeraldCore

/// Whom to invite: a stored person (every invitable number of theirs) or a number typed as text.
public enum InviteTarget: Sendable, Hashable {
    case person(Person)
    /// Parsed with the workspace's `PhoneNumberParser`; a stored person with this number is attached.
    case number(String)
}

/// How one invitation request is sent. Nil values fall back on the workspace's configuration.
public struct InviteOptions: Sendable, Hashable {
    /// The application message to send (its key); nil: the configured or the application's default.
    public var messageKey: String?
    /// The sender ID; nil: the configured sender.
    public var sender: String?
    /// Client fields for every recipient (`SENDER_NAME`, `CUSTOM_TEXT`…); `RECEIVER_NAME` is filled
    /// per person unless given here.
    public var fields: [String: String]
    public var policy: ResendPolicy
    /// The bulk whose failed numbers this send resends (Deliveries' resend): its new bulk links back to it.
    public var resendOf: String?
    /// A scheduled send: the platform holds it until then (`SendTime` checks the value people write).
    public var sendAt: Date?
    /// Leaves at once, without the undo window (`send --now`).
    public var now: Bool
    /// Quiet hours for this send instead of `[send] quiet_hours`; `ignoreQuietHours` sends to everyone at once.
    public var quietHours: QuietHours?
    public var ignoreQuietHours: Bool
    /// An email invitation instead of an SMS: to each person's first email address, from the workspace's
    /// `email_from`. Quiet hours and the daily cap are SMS rules and do not apply.
    public var email: EmailOptions?
    /// What the send was estimated to cost (its preview's): each bulk keeps the sum over its recipients.
    public var estimate: PriceEstimate?
    /// What happens to a recipient whose personal field (`{FIRST_NAME}`, `{TEAM}`…) is empty and has no fallback in
    /// the message; nil: such a send is refused (`InviteError.missingFields`) and a preview lists them.
    public var missing: MissingFieldChoice?

    public init(messageKey: String? = nil, sender: String? = nil, fields: [String: String] = [:],
                policy: ResendPolicy = .default, resendOf: String? = nil, sendAt: Date? = nil, now: Bool = false,
                quietHours: QuietHours? = nil, ignoreQuietHours: Bool = false, email: EmailOptions? = nil) {
        self.email = email
        self.quietHours = quietHours
        self.ignoreQuietHours = ignoreQuietHours
        self.sendAt = sendAt
        self.now = now
        self.resendOf = resendOf
        self.messageKey = messageKey
        self.sender = sender
        self.fields = fields
        self.policy = policy
    }
}

/// What a send does with a recipient whose personal field is empty and has no fallback in the message: never a blank.
public enum MissingFieldChoice: Sendable, Hashable {
    /// They are left out (listed in `skipped`, with the field).
    case leaveOut
    /// They are sent this text in the field's place, by field name (`["FIRST_NAME": "there"]`); a missing field with
    /// no text here refuses the send (`InviteError.noFallback`).
    case fallback([String: String])
}

/// A recipient whose personal field is empty and has no fallback in the message.
public struct MissingField: Sendable, Hashable, Codable {
    /// E.164 with the plus.
    public var address: String
    public var personId: Int64?
    /// The person's name as shown, nil for a number outside the address book.
    public var name: String?
    /// The field's name (`FIRST_NAME`).
    public var field: String

    public init(address: String, personId: Int64?, name: String?, field: String) {
        self.address = address
        self.personId = personId
        self.name = name
        self.field = field
    }
}

/// What an email invitation adds to a send.
public struct EmailOptions: Sendable, Hashable {
    public var subject: String
    /// The body, with the message's placeholders (its link, client fields); nil: the application message's text.
    public var text: String?

    public init(subject: String = EmailOptions.defaultSubject, text: String? = nil) {
        self.subject = subject
        self.text = text
    }

    public static let defaultSubject = "An invitation to Herald"
}

/// One recipient the platform was asked to invite.
public struct InvitedRecipient: Sendable, Hashable, Codable {
    /// E.164 with the plus ("+385981234567").
    public var address: String
    public var messageId: String?
    public var personId: Int64?
    public var bulkId: String?
    public var status: DeliveryStatus
    /// Why the platform refused it, when it did.
    public var reason: String?
    public var correlator: String

    public init(address: String, messageId: String?, personId: Int64?, bulkId: String?, status: DeliveryStatus,
                reason: String?, correlator: String) {
        self.address = address
        self.messageId = messageId
        self.personId = personId
        self.bulkId = bulkId
        self.status = status
        self.reason = reason
        self.correlator = correlator
    }
}

/// A number that was not sent to, and why.
public struct SkippedRecipient: Sendable, Hashable, Codable {
    /// E.164 when the number parsed, else the text as given.
    public var address: String
    public var personId: Int64?
    public var reason: String

    public init(address: String, personId: Int64?, reason: String) {
        self.address = address
        self.personId = personId
        self.reason = reason
    }
}

/// What an invitation request did.
public struct InviteResult: Sendable, Hashable {
    /// Every bulk the platform answered with, in request order (several past 1000 destinations).
    public var bulkIds: [String]
    public var deliveryInfoUrls: [String]
    public var recipients: [InvitedRecipient]
    public var skipped: [SkippedRecipient]
    /// What the reconciliation of earlier interrupted sends did before this request.
    public var reconciled: ReconcileReport
    /// When the platform lets it leave (the undo window's end, or the scheduled time); nil: it left at once.
    public var sendAt: Date?
    /// Invitations this sender ID may still send today under `[send] max_per_day`; nil: no cap.
    public var leftToday: Int?

    public init(bulkIds: [String] = [], deliveryInfoUrls: [String] = [], recipients: [InvitedRecipient] = [],
                skipped: [SkippedRecipient] = [], reconciled: ReconcileReport = ReconcileReport()) {
        self.bulkIds = bulkIds
        self.deliveryInfoUrls = deliveryInfoUrls
        self.recipients = recipients
        self.skipped = skipped
        self.reconciled = reconciled
    }

    /// The first bulk, nil when nothing was sent.
    public var bulkId: String? { bulkIds.first }
    public var deliveryInfoUrl: String? { deliveryInfoUrls.first }
}

/// What reconciling the ledger's `queued` rows did on start.
public struct ReconcileReport: Sendable, Hashable {
    /// Rows the platform now has a result for (sent earlier, or sent now for the first time).
    public var reconciled: Int
    /// Rows that could not be reconciled and were marked failed, with the reason in the ledger.
    public var failed: Int
    /// Rows left queued because the platform could not be reached (tried again later).
    public var stillQueued: Int
    /// Rows queued by another process that is still sending them (left to it).
    public var otherProcess: Int
    /// The bulks the reconciled rows belong to.
    public var bulkIds: [String]
    /// Why the ledger could not be read, when it could not.
    public var unreadable: String?

    public init(reconciled: Int = 0, failed: Int = 0, stillQueued: Int = 0, otherProcess: Int = 0, bulkIds: [String] = [],
                unreadable: String? = nil) {
        self.reconciled = reconciled
        self.failed = failed
        self.stillQueued = stillQueued
        self.otherProcess = otherProcess
        self.bulkIds = bulkIds
        self.unreadable = unreadable
    }

    /// Adds another report's counts to this one.
    public mutating func add(_ other: ReconcileReport) {
        reconciled += other.reconciled
        failed += other.failed
        stillQueued += other.stillQueued
        otherProcess += other.otherProcess
        bulkIds += other.bulkIds.filter { !bulkIds.contains($0) }
        unreadable = unreadable ?? other.unreadable
    }

    /// Whether there is anything to tell.
    public var isEmpty: Bool { reconciled + failed + stillQueued == 0 && unreadable == nil }

    /// One sentence for people: what was completed, what failed, what still waits.
    public var summary: String {
        if let unreadable { return "could not check interrupted invitations: \(unreadable)" }
        var parts: [String] = []
        if reconciled > 0 {
            let bulks = bulkIds.isEmpty ? "" : " (bulk \(bulkIds.joined(separator: ", ")))"
            parts.append("completed \(counted(reconciled, "invitation")) an interrupted run had queued\(bulks)")
        }
        if failed > 0 { parts.append("\(counted(failed, "interrupted invitation")) could not be replayed and \(failed == 1 ? "is" : "are") marked failed") }
        if stillQueued > 0 { parts.append("\(counted(stillQueued, "interrupted invitation")) still \(stillQueued == 1 ? "waits" : "wait") for the platform and \(stillQueued == 1 ? "stays" : "stay") queued") }
        return parts.joined(separator: "; ")
    }
}

/// A rule broken by a whole invitation request; nothing was written or sent.
public enum InviteError: Error, Sendable, Hashable, UserFacingError {
    case invalidSender(SenderIDError)
    case noSender
    /// An email invitation with no From set.
    case noEmailSender
    case emptyMessage(key: String)
    case noMessage
    case unknownField(String)
    /// The message uses {SENDER_NAME} and nothing gives it a value: it would leave with a gap.
    case noSenderName(messageText: String)
    /// The platform lets this workspace read but not send (a viewer's key on a Herald server); the text says why.
    case readOnly(String)
    case noTargets
    case unknownPerson(Int64)
    /// The platform refused the request; every recipient was marked failed with this reason.
    case platformRefused(String)
    /// The platform did not answer; the recipients stay queued and are checked again before the next send.
    case platformUncertain(String, queued: Int)
    /// Recipients whose personal field is empty and has no fallback, and no choice was made (leave out, or a fallback).
    case missingFields([MissingField])
    /// `MissingFieldChoice.fallback` gives no text for a field some recipient lacks.
    case noFallback(String)
    /// The message uses a field that is neither a standard nor a client field, and no recipient has it.
    case fieldNobodyHas(String, known: [String])
    /// An answer with no text.
    case emptyAnswer
    /// An answer longer than one destination's text may be.
    case answerTooLong(Int, limit: Int)
    /// The number an answer is for is no phone number.
    case invalidNumber(String, String)

    public var userMessage: String {
        switch self {
        case .invalidSender(let error):
            return "sender ID rule broken: \(error.description); pass --sender with a valid one or fix sender in config.toml"
        case .noSender:
            return "no sender ID: pass --sender NAME or set sender = \"NAME\" in config.toml"
        case .noEmailSender:
            return "no email sender: set email_from = \"you@example.com\" in config.toml (or pass --from)"
        case .emptyMessage(let key):
            return "message \"\(key)\" is empty: give it some text with `herald templates update \(key) --text …`"
        case .noMessage:
            return "no message to send: pass --message ID, set message in config.toml, or create one with `herald templates create`"
        case .unknownField(let key):
            let known = ClientField.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown field \(key): client fields are \(known)"
        case .readOnly(let why):
            return "\(why): nothing was sent and no contact was marked"
        case .noSenderName(let text):
            return """
                the message says "\(text)" and no sender name fills {SENDER_NAME}: nothing was sent. \
                Set sender_name in config.toml (sender_name = "Ana Horvat"), or HERALD_SENDER_NAME, or pass --field SENDER_NAME=…, \
                or type :name Ana Horvat in Herald's screens (kept for the next sends)
                """
        case .noTargets:
            return "nobody to invite: pass --to with a contact id or a phone number"
        case .unknownPerson(let id):
            return "no contact with id \(id): list contacts with `herald contacts list`"
        case .platformRefused(let text):
            return "the platform refused the invitations: \(text); nothing was sent and the recipients are marked failed"
        case .missingFields(let list):
            let shown = list.prefix(5).map { "\($0.name.map { TerminalSafeText.sanitize($0) } ?? $0.address) (\($0.field))" }
            let more = list.count > 5 ? " and \(list.count - 5) more" : ""
            let fields = Array(Set(list.map(\.field))).sorted()
            return "\(counted(list.count, "recipient")) \(list.count == 1 ? "has" : "have") no value for a field the message uses: "
                + shown.joined(separator: ", ") + more + ". Nothing was sent: leave them out (--missing leave-out) or give a fallback "
                + "(--missing fallback " + fields.map { "--fallback \($0)=TEXT" }.joined(separator: " ") + ")"
        case .noFallback(let field):
            return "no fallback for \(field): pass --fallback \(field)=TEXT, or leave out who lacks it (--missing leave-out); nothing was sent"
        case .fieldNobodyHas(let field, let known):
            return "the message uses {\(field)} and no recipient has a field \(field): nothing was sent. "
                + "Fields: \(known.joined(separator: ", ")). Fix the message, or give it a fallback ({\(field)|text})"
        case .emptyAnswer:
            return "the answer is empty: write some text (nothing was sent)"
        case .answerTooLong(let count, let limit):
            return "the answer has \(count) characters, more than the \(limit) one text may have: shorten it (nothing was sent)"
        case .invalidNumber(let given, let why):
            return "\(TerminalSafeText.sanitize(given, singleLine: true)) is not a number to answer: \(why)"
        case .platformUncertain(let text, let queued):
            return "\(text); \(counted(queued, "recipient")) \(queued == 1 ? "stays" : "stay") queued and \(queued == 1 ? "is" : "are") completed with the platform by the next run of Herald (nothing is sent twice)"
        }
    }
}
