import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore

/// Why a conversation could not be read, marked or answered.
public enum ConversationError: Error, Sendable, Hashable, UserFacingError {
    /// The number is not a phone number.
    case invalidNumber(String)
    /// This terminal changes nothing (read-only, or a viewer key).
    case readOnly(String)
    /// The answer is empty or too long.
    case invalidText(String)
    /// The platform refused or could not be reached.
    case platform(String)

    public var userMessage: String {
        switch self {
        case .invalidNumber(let why), .readOnly(let why), .invalidText(let why), .platform(let why): return why
        }
    }
}

/// The conversations of this workspace's platform: the replies people sent back, threaded per number with the
/// invitations and answers sent to it; seen marks; answers through the ledger.
public actor ConversationService {
    let platform: PlatformClient
    let contacts: ContactStore
    let invites: InviteService
    let bus: EventBus
    let parser: PhoneNumberParser
    let configuredSender: String?
    let readOnlyReason: String?
    private var unread = 0

    init(platform: PlatformClient, contacts: ContactStore, invites: InviteService, bus: EventBus,
         parser: PhoneNumberParser, sender: String?, readOnlyReason: String?) {
        self.platform = platform
        self.contacts = contacts
        self.invites = invites
        self.bus = bus
        self.parser = parser
        self.configuredSender = sender
        self.readOnlyReason = readOnlyReason
        self.answerSenderValue = AnswerSender(configured: sender)
    }

    private nonisolated let answerSenderValue: AnswerSender

    /// Unread replies over every conversation, as last read or told by an event.
    public var unreadTotal: Int { unread }

    /// Conversations newest first: only those with unread replies, or only one number's.
    public func list(unreadOnly: Bool = false, from: String? = nil, limit: Int = 200) async throws -> ConversationPage {
        throw ConversationError.platform("conversations are not available yet")
    }

    /// The thread of `number` (any form the parser reads): its newest `limit` messages, oldest first.
    public func thread(number: String, limit: Int = 1000) async throws -> ConversationDetail {
        throw ConversationError.platform("conversations are not available yet")
    }

    /// Marks every reply of `number` seen; answers how many were marked.
    public func markSeen(number: String) async throws -> Int {
        throw ConversationError.platform("conversations are not available yet")
    }

    /// Answers `number` with `text` exactly as written, through the ledger (hold, quiet hours, opt-outs apply).
    public func answer(number: String, text: String, options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        throw ConversationError.platform("answers are not available yet")
    }

    /// The sender an answer leaves from, with a warning when people cannot reply to it.
    public nonisolated func answerSender() -> AnswerSender { answerSenderValue }
}
