import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// Why a conversation could not be read, marked or answered.
public enum ConversationError: Error, Sendable, Hashable, UserFacingError {
    /// The number is not a phone number.
    case invalidNumber(String)
    /// This terminal changes nothing (read-only, or a viewer key).
    case readOnly(String)
    /// The platform refused or could not be reached.
    case platform(String)

    public var userMessage: String {
        switch self {
        case .invalidNumber(let why), .readOnly(let why), .platform(let why): return why
        }
    }
}

/// The conversations of this workspace's platform: the replies people sent back, threaded per number with the
/// invitations and answers sent to it; seen marks; answers through the ledger (`InviteService.answer`).
///
/// The platform keeps replies and seen marks (a server's are the team's); this service names each number after the
/// person of the address book who has it, keeps the unread total current and turns the platform's reply events into
/// `HeraldEvent.repliesChanged` on the bus.
public actor ConversationService {
    private static let log = Logger(label: "herald.conversations")
    let platform: PlatformClient
    let contacts: ContactStore
    let ledger: LedgerStore
    let invites: InviteService
    let bus: EventBus
    let parser: PhoneNumberParser
    let readOnlyReason: String?
    private nonisolated let sender: AnswerSender
    private var unread = 0
    /// The address book's person of each number looked up (nil: nobody has it), until the book changes.
    private var names: [String: Person?] = [:]
    /// The address book's generation `names` was read at.
    private var namesGeneration: Int64?
    static let maxRemembered = 50_000

    init(platform: PlatformClient, contacts: ContactStore, ledger: LedgerStore, invites: InviteService, bus: EventBus,
         parser: PhoneNumberParser, sender: String?, readOnlyReason: String?) {
        self.platform = platform
        self.contacts = contacts
        self.ledger = ledger
        self.invites = invites
        self.bus = bus
        self.parser = parser
        self.readOnlyReason = readOnlyReason
        self.sender = AnswerSender(configured: sender)
    }

    /// Unread replies over every conversation, as last read or told by an event.
    public var unreadTotal: Int { unread }

    /// Conversations newest first: only those with unread replies, or only one number's (any form the parser reads).
    public func list(unreadOnly: Bool = false, from: String? = nil, limit: Int = 200) async throws -> ConversationPage {
        let number = try from.map(e164)
        let bounded = min(max(limit, 1), ListConversations.maxLimit)
        let list = try await call("cannot read the conversations") {
            try await platform.call(ListConversations(secret: platform.credentials.applicationSecret,
                                                      filter: ConversationFilter(unreadOnly: unreadOnly, from: number, limit: bounded)))
        }
        unread = max(0, list.unreadTotal)
        let numbers = list.conversations.map { Self.plus($0.number) }
        let names = people(of: numbers)
        let rows = list.conversations.map { summary -> ConversationRow in
            let number = Self.plus(summary.number)
            let person = names[number]
            return ConversationRow(number: number, personId: person?.id, name: person?.displayName,
                                   lastAt: WireTime.date(summary.lastAt) ?? .distantPast, lastText: summary.lastText,
                                   lastIsReply: summary.lastIsReply, unread: summary.unread, replies: summary.replies)
        }
        return ConversationPage(rows: rows, unreadTotal: list.unreadTotal, hasMore: list.hasMore)
    }

    /// The thread of `number` (any form the parser reads): its newest `limit` messages, oldest first. Reading marks
    /// nothing seen.
    public func thread(number: String, limit: Int = 1000) async throws -> ConversationDetail {
        let e164 = try e164(number)
        let bounded = min(max(limit, 1), GetConversation.maxLimit)
        let thread = try await call("cannot read the conversation with \(e164)") {
            try await platform.call(GetConversation(secret: platform.credentials.applicationSecret, number: e164, limit: bounded))
        }
        let person = people(of: [e164])[e164]
        return ConversationDetail(number: e164, personId: person?.id, name: person?.displayName,
                                  entries: thread.entries.map(Self.entry), unread: thread.unread, hasMore: thread.hasMore)
    }

    /// Marks every reply of `number` seen; answers how many were marked. The bus hears of it.
    public func markSeen(number: String) async throws -> Int {
        if let readOnlyReason { throw ConversationError.readOnly(readOnlyReason) }
        let e164 = try e164(number)
        let result = try await call("cannot mark the replies of \(e164) seen") {
            try await platform.call(MarkConversationSeen(secret: platform.credentials.applicationSecret, number: e164))
        }
        unread = max(0, result.unreadTotal)
        if result.marked > 0 {
            bus.publish(.repliesChanged(RepliesChange(number: e164, unreadTotal: unread, reply: nil)))
        }
        return result.marked
    }

    /// Answers `number` with `text` exactly as written, through the ledger as an invitation goes (queued and
    /// journaled first, the undo window, quiet hours, opt-outs). Throws `InviteError` for an empty or too long text.
    public func answer(number: String, text: String, options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        if let readOnlyReason { throw ConversationError.readOnly(readOnlyReason) }
        return try await invites.answer(number: try e164(number), text: text, options: options)
    }

    /// The sender an answer leaves from, with a warning when people cannot reply to it.
    public nonisolated func answerSender() -> AnswerSender { sender }

    // MARK: live

    /// Folds one of the platform's events: a reply becomes `.repliesChanged` with the entry and the sender's name, a
    /// seen mark `.repliesChanged` without one. Other events are left alone.
    public func apply(_ event: PlatformEvent) async {
        switch event {
        case .replyReceived(let reply):
            let number = Self.plus(reply.from)
            if !reply.seen {
                // The event says nothing of the total: one read of the platform does (a guess when it fails).
                do {
                    let list = try await platform.call(ListConversations(secret: platform.credentials.applicationSecret,
                                                                         filter: ConversationFilter(unreadOnly: true, limit: 1)))
                    unread = max(0, list.unreadTotal)
                } catch {
                    unread += 1
                    Self.log.info("could not read the unread total after a reply", metadata: ["cause": "\(error)"])
                }
            }
            let entry = ConversationEntry(kind: .reply, messageId: reply.messageId,
                                          at: WireTime.date(reply.receivedAt) ?? Date(), text: reply.text,
                                          bulkId: reply.bulkId, seen: reply.seen)
            let name = people(of: [number])[number]?.displayName
            bus.publish(.repliesChanged(RepliesChange(number: number, unreadTotal: unread, reply: entry, name: name,
                                                      optedOut: reply.optedOut)))
        case .conversationSeen(let number, _, let total):
            unread = max(0, total)
            bus.publish(.repliesChanged(RepliesChange(number: Self.plus(number), unreadTotal: unread, reply: nil)))
        default:
            break
        }
    }

    // MARK: helpers

    /// `number` as E.164 with the plus: what the parser makes of it, or a number already written with its plus.
    func e164(_ number: String) throws -> String {
        let parsed = parser.parse(number)
        if let e164 = parsed.e164 { return e164 }
        let trimmed = number.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("+"), let digits = ConversationNumber.wire(trimmed) { return "+" + digits }
        throw ConversationError.invalidNumber("\"\(TerminalSafeText.sanitize(number))\" is not a phone number: "
                                              + (parsed.invalidReason ?? "write it with its country code, +385911234567"))
    }

    /// The person of the address book for each number that somebody has (the lowest id when several do); numbers
    /// looked up before are answered from memory until the book changes (in any process: its generation says).
    func people(of numbers: [String]) -> [String: Person] {
        do {
            let generation = try ledger.version().contacts
            if generation != namesGeneration || names.count > Self.maxRemembered {
                names = [:]
                namesGeneration = generation
            }
        } catch {
            names = [:]
            namesGeneration = nil
        }
        let missing = Set(numbers).filter { names[$0] == nil }
        if !missing.isEmpty {
            do {
                let ids = try contacts.personIDs(withNumbers: Array(missing))
                let people = ids.isEmpty ? [:] : Dictionary(
                    try contacts.people(ids: Array(Set(ids.values))).compactMap { p in p.id.map { ($0, p) } },
                    uniquingKeysWith: { a, _ in a })
                for number in missing { names[number] = .some(ids[number].flatMap { people[$0] }) }
            } catch {
                Self.log.warning("could not look numbers up in the address book; they show without names",
                                 metadata: ["cause": "\(logCause(error))"])
            }
        }
        var found: [String: Person] = [:]
        for number in numbers { if let person = names[number] ?? nil { found[number] = person } }
        return found
    }

    static func plus(_ wire: String) -> String { wire.hasPrefix("+") ? wire : "+" + wire }

    static func entry(_ wire: ThreadEntry) -> ConversationEntry {
        ConversationEntry(kind: wire.kind == .reply ? .reply : .sent, messageId: wire.messageId,
                          at: WireTime.date(wire.at) ?? .distantPast, text: wire.text,
                          status: wire.kind == .sent ? wire.status : nil, bulkId: wire.bulkId,
                          seen: wire.kind == .sent ? true : (wire.seen ?? false))
    }

    /// Runs a platform call, its failure in plain words.
    private func call<T: Sendable>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as APIError {
            if case .forbidden(let why) = error { throw ConversationError.readOnly("\(what): \(why)") }
            throw ConversationError.platform("\(what): \(error.description)")
        }
    }
}
