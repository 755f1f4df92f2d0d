import Foundation
import HeraldCore

/// One conversation in the list: everything one number sent and was sent, summed up by its latest message.
public struct ConversationRow: Sendable, Hashable, Identifiable {
    /// The number, E.164 with the plus (`+385911234567`).
    public var number: String
    /// The person of the address book who has this number; nil for a number nobody in the book has.
    public var personId: Int64?
    /// That person's display name; nil for an unknown number.
    public var name: String?
    /// When the latest message (a reply or an invitation) was received or sent.
    public var lastAt: Date
    /// The text of the latest message (raw: sanitise before it reaches a terminal).
    public var lastText: String
    /// Whether the latest message is a reply (else an invitation or answer sent to the number).
    public var lastIsReply: Bool
    /// Replies not yet seen.
    public var unread: Int
    /// Replies in the conversation.
    public var replies: Int

    public var id: String { number }

    public init(number: String, personId: Int64? = nil, name: String? = nil, lastAt: Date, lastText: String,
                lastIsReply: Bool, unread: Int, replies: Int) {
        self.number = number
        self.personId = personId
        self.name = name
        self.lastAt = lastAt
        self.lastText = lastText
        self.lastIsReply = lastIsReply
        self.unread = unread
        self.replies = replies
    }
}

/// One message of a thread: a reply the number sent, or an invitation/answer sent to it.
public struct ConversationEntry: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The number sent it to us.
        case reply
        /// We sent it to the number (an invitation or an answer).
        case sent
    }

    public var kind: Kind
    /// The carrier's message id (the key a reply is stored once by).
    public var messageId: String
    public var at: Date
    /// The text (raw: sanitise before it reaches a terminal).
    public var text: String
    /// Where a sent message stands; nil for a reply.
    public var status: DeliveryStatus?
    /// The bulk a sent message left in, or the invitation a reply answers (threading).
    public var bulkId: String?
    /// Whether a reply was seen; always true for a sent message.
    public var seen: Bool

    public var id: String { "\(kind.rawValue):\(messageId)" }

    public init(kind: Kind, messageId: String, at: Date, text: String, status: DeliveryStatus? = nil,
                bulkId: String? = nil, seen: Bool = true) {
        self.kind = kind
        self.messageId = messageId
        self.at = at
        self.text = text
        self.status = status
        self.bulkId = bulkId
        self.seen = seen
    }
}

/// The thread of one number: its messages oldest first.
public struct ConversationDetail: Sendable, Hashable {
    /// E.164 with the plus.
    public var number: String
    public var personId: Int64?
    public var name: String?
    /// Oldest first.
    public var entries: [ConversationEntry]
    /// Replies of the whole conversation not yet seen.
    public var unread: Int
    /// Whether older messages exist than the first entry.
    public var hasMore: Bool

    public init(number: String, personId: Int64? = nil, name: String? = nil, entries: [ConversationEntry],
                unread: Int, hasMore: Bool) {
        self.number = number
        self.personId = personId
        self.name = name
        self.entries = entries
        self.unread = unread
        self.hasMore = hasMore
    }

    /// "Ana Horvat" or the number when nobody in the book has it.
    public var title: String { name ?? number }
}

/// A page of the conversation list, newest first.
public struct ConversationPage: Sendable, Hashable {
    public var rows: [ConversationRow]
    /// Unread replies over every conversation (not only this page's).
    public var unreadTotal: Int
    /// Whether more conversations exist than this page holds.
    public var hasMore: Bool

    public init(rows: [ConversationRow], unreadTotal: Int, hasMore: Bool) {
        self.rows = rows
        self.unreadTotal = unreadTotal
        self.hasMore = hasMore
    }
}

/// Replies changed: a new one arrived, or seen marks changed.
public struct RepliesChange: Sendable, Hashable {
    /// The conversation's number, E.164 with the plus.
    public var number: String
    /// Unread replies over every conversation after the change.
    public var unreadTotal: Int
    /// The reply that arrived; nil when only seen marks changed.
    public var reply: ConversationEntry?
    /// Who sent the reply (the address book's name), when known.
    public var name: String?
    /// Whether the reply was a stop word that opted the number out.
    public var optedOut: Bool

    public init(number: String, unreadTotal: Int, reply: ConversationEntry?, name: String? = nil, optedOut: Bool = false) {
        self.number = number
        self.unreadTotal = unreadTotal
        self.reply = reply
        self.name = name
        self.optedOut = optedOut
    }
}

/// The sender an answer leaves from, and whether a person can answer it back.
public struct AnswerSender: Sendable, Hashable {
    /// The configured sender ID; nil: none configured, the platform's (the account's number) is used.
    public var sender: String?
    /// The configured sender's kind; nil when none is configured or it is not a valid sender ID.
    public var kind: SenderID.Kind?
    /// Set when a reply to the answer cannot reach back: an alphanumeric sender ID cannot be answered.
    public var warning: String?

    public init(sender: String?, kind: SenderID.Kind?, warning: String?) {
        self.sender = sender
        self.kind = kind
        self.warning = warning
    }

    /// What it says of a configured sender (the config's `sender`).
    public init(configured sender: String?) {
        let trimmed = sender?.trimmingCharacters(in: .whitespaces)
        guard let value = trimmed, !value.isEmpty else {
            self.init(sender: nil, kind: nil, warning: nil)
            return
        }
        let kind = try? SenderID.validate(value)
        var warning: String?
        switch kind {
        case .alphanumeric:
            warning = "the sender \"\(value)\" is alphanumeric: people cannot reply to it; answers reach a person only "
                + "from a numeric sender or the account's number (set sender in config.toml to one)"
        case .numeric:
            warning = nil
        case nil:
            warning = "the sender \"\(value)\" is not a valid sender ID: \(SenderID.problem(value) ?? "invalid")"
        }
        self.init(sender: value, kind: kind, warning: warning)
    }

    /// "+38591…", "Herald (alphanumeric)" or "the account's number", for a line before an answer is sent.
    public var label: String {
        guard let sender else { return "the account's number" }
        switch kind {
        case .numeric: return sender
        case .alphanumeric: return "\(sender) (alphanumeric)"
        case nil: return "\(sender) (invalid)"
        }
    }
}
