import Foundation
import HeraldAPI
import HeraldCore

/// What became of one reply handed to the engine: kept (nil when a reply with its messageId was kept already: then
/// nothing changed) and the opt-out it made (nil when it did not say stop, or was kept already).
public struct ReceivedReply: Sendable, Hashable {
    public var reply: ReplyWire?
    public var optOut: OptOut?
}

/// Replies people send back, kept: each once under the carrier's id, threaded to the latest invitation sent to the
/// number before it, counted unread until someone marks it seen. A reply that says stop opts the number out in the
/// same unit of work that keeps it. Every reply kept and every seen mark is an event of the application's stream.
extension PlatformEngine {
    /// The longest reply text kept (characters); a longer one is cut there.
    public static let maxReplyText = 4000
    /// How far ahead of this clock a reply's time may be (milliseconds) before it is taken as arriving now.
    static let replyClockSkew: Int64 = 300_000
    /// The longest carrier id of a reply.
    static let maxReplyId = 200

    /// The stop word a reply's first word is (upper-cased), nil when it is none.
    nonisolated func stopWord(in text: String) -> String? {
        let word = text.trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: { $0.isWhitespace || $0.isPunctuation })
            .first.map { $0.uppercased() } ?? ""
        return Self.stopWords.contains(word) || config.extraStopWords.contains(word) ? word : nil
    }

    /// Keeps `replies` for the application: each at most once (a messageId kept already is left as it is and not
    /// answered; one without a messageId gets a fresh one), threaded, a stop word opting the number out in the same
    /// unit of work, each announced by `.replyReceived`. A reply whose sender is no phone number, or whose id is
    /// unusable, is left out (logged). Answers the replies newly kept, in the order given.
    public nonisolated func storeReplies(_ replies: [CarrierReply], applicationKey: String) async throws -> [ReplyWire] {
        try await keepReplies(replies, applicationKey: applicationKey).compactMap(\.reply)
    }

    /// One reply, as the sandbox, the server's console or a test hands it: its sender must be a valid number (a 400
    /// names it). Answers whether it was kept and the opt-out it made.
    public nonisolated func receiveReply(applicationKey: String, reply: CarrierReply) async throws -> ReceivedReply {
        var reply = reply
        reply.from = try Self.optOutNumber(reply.from)
        var input = WireInput()
        input.identifier("messageId", reply.messageId, maxLength: Self.maxReplyId)
        try input.check("invalid reply")
        return try await keepReplies([reply], applicationKey: applicationKey).first ?? ReceivedReply(reply: nil, optOut: nil)
    }

    nonisolated func keepReplies(_ replies: [CarrierReply], applicationKey: String) async throws -> [ReceivedReply] {
        let storedAt = nowMs
        var seen = Set<String>()
        var prepared: [(reply: NewReply, stopWord: String?)] = []
        for reply in replies {
            guard let new = checkedReply(reply, at: storedAt), seen.insert(new.messageId).inserted else { continue }
            prepared.append((new, stopWord(in: new.text)))
        }
        guard !prepared.isEmpty else { return [] }
        let batch = prepared
        let kept = try await store.write { [self] db -> [ReceivedReply] in
            guard try db.applications.find(key: applicationKey) != nil else {
                throw APIError.notFound("no application \(applicationKey)")
            }
            var kept: [ReceivedReply] = []
            for (candidate, word) in batch {
                var reply = candidate
                reply.optedOut = word != nil
                if let thread = try db.replies.latestInvitation(applicationKey: applicationKey, msisdn: reply.from,
                                                                atOrBefore: reply.receivedAt) {
                    reply.bulkId = thread.bulkId
                    reply.invitationMessageId = thread.messageId
                }
                guard try db.replies.insert(reply, applicationKey: applicationKey, storedAt: storedAt) else {
                    kept.append(ReceivedReply(reply: nil, optOut: nil))
                    continue
                }
                var optOut: OptOut?
                if let word {
                    let known = try db.optOuts.find(applicationKey: applicationKey, msisdn: reply.from) != nil
                    let entry = try db.optOuts.add(applicationKey: applicationKey, msisdn: reply.from,
                                                   source: "\(OptOut.replySourcePrefix) \(word)", at: storedAt)
                    if !known {
                        try db.audit.append(AuditRecord(applicationKey: applicationKey, at: storedAt, actor: .reply, action: .optOutAdd,
                                                        subject: entry.number, what: "opted out (\(Self.auditText(entry.source)))"))
                    }
                    optOut = entry
                }
                let wire = Self.wire(reply)
                try appendEvent(db, applicationKey: applicationKey, .replyReceived(wire))
                kept.append(ReceivedReply(reply: wire, optOut: optOut))
            }
            return kept
        }
        if kept.contains(where: { $0.reply != nil }) { bell.ring() }
        return kept
    }

    /// A reply as it will be kept, nil (logged) when it cannot be: its sender no phone number, its id unusable.
    nonisolated func checkedReply(_ reply: CarrierReply, at now: Int64) -> NewReply? {
        guard let from = try? Self.optOutNumber(reply.from) else {
            log.warning("reply left out: its sender is no phone number", metadata: ["from": "\(PersonalDataMask.maskText(String(reply.from.prefix(40))))"])
            return nil
        }
        let givenId = reply.messageId?.trimmingCharacters(in: .whitespaces) ?? ""
        if !givenId.isEmpty, WireInput.identifierProblem(givenId, maxLength: Self.maxReplyId) != nil {
            log.warning("reply left out: its messageId is unusable", metadata: ["from": "\(PersonalDataMask.mask(from))"])
            return nil
        }
        let messageId = givenId.isEmpty ? "reply-" + Identifiers.uuid() : givenId
        // PostgreSQL's text holds no NUL; the rest is the person's text as they wrote it (a screen sanitises it).
        var text = String(String.UnicodeScalarView(reply.text.unicodeScalars.filter { $0 != "\0" }))
        if text.count > Self.maxReplyText { text = String(text.prefix(Self.maxReplyText)) }
        let to = reply.to.flatMap { to -> String? in
            if let digits = ConversationNumber.wire(to) { return digits }
            let clean = Self.auditText(to)
            return clean.isEmpty ? nil : String(clean.prefix(64))
        }
        let price = reply.price.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let currency = reply.currency.flatMap { WireInput.identifierProblem($0, maxLength: 8) == nil ? $0 : nil }
        // A time from the future (a carrier's clock ahead, a forged report) would pin the conversation on top: it is now.
        let receivedAt = reply.receivedAt.map(\.epochMilliseconds).flatMap { (0...now + Self.replyClockSkew).contains($0) ? $0 : nil } ?? now
        return NewReply(messageId: messageId, from: from, to: to, text: text, receivedAt: receivedAt, price: price,
                        currency: currency, optedOut: false)
    }

    static func wire(_ reply: NewReply) -> ReplyWire {
        ReplyWire(messageId: reply.messageId, from: reply.from, to: reply.to, text: reply.text,
                  receivedAt: WireTime.text(Date(epochMilliseconds: reply.receivedAt)), price: reply.price, currency: reply.currency,
                  seen: false, bulkId: reply.bulkId, invitationMessageId: reply.invitationMessageId, optedOut: reply.optedOut)
    }

    // MARK: - Reading

    /// The application's conversations newest first (`filter.before` pages on), with unread counts: the numbers that
    /// replied at least once, or the one number `filter.from` names whatever it holds. A 400 for a limit out of
    /// 1…`ListConversations.maxLimit` or a `from` that is no number.
    public nonisolated func conversations(applicationKey: String, filter: ConversationFilter = ConversationFilter()) async throws
        -> ConversationList {
        var input = WireInput()
        let limit = filter.limit ?? ListConversations.defaultLimit
        if !(1...ListConversations.maxLimit).contains(limit) {
            input.refuse("limit", "must be a whole number from 1 to \(ListConversations.maxLimit)")
        }
        var number: String?
        if let from = filter.from {
            number = ConversationNumber.wire(from)
            if number == nil { input.refuse("from", "not a number: write it as E.164 digits (385981234567)") }
        }
        try input.check("invalid conversations query")
        let query = ConversationQuery(unreadOnly: filter.unreadOnly, number: number, before: filter.before?.epochMilliseconds,
                                      limit: limit + 1)
        return try await store.read { db in
            let found = try db.replies.conversations(applicationKey: applicationKey, query)
            return ConversationList(conversations: Array(found.prefix(limit)), unreadTotal: try db.replies.unreadTotal(applicationKey: applicationKey),
                                    hasMore: found.count > limit)
        }
    }

    /// One number's thread: its newest `limit` messages before `before` (replies and the SMS sent to it), oldest first.
    /// A number nothing was exchanged with has an empty thread. A 400 for a number that is no number or a limit out of
    /// 1…`GetConversation.maxLimit`.
    public nonisolated func thread(applicationKey: String, number: String, before: Date? = nil,
                                   limit: Int = GetConversation.defaultLimit) async throws -> ConversationThread {
        var input = WireInput()
        let msisdn = ConversationNumber.wire(number)
        if msisdn == nil { input.refuse("number", "not a number: write it as E.164 digits (385981234567)") }
        if !(1...GetConversation.maxLimit).contains(limit) {
            input.refuse("limit", "must be a whole number from 1 to \(GetConversation.maxLimit)")
        }
        try input.check("invalid conversation query")
        let digits = msisdn ?? ""
        let beforeMs = before?.epochMilliseconds
        return try await store.read { db in
            let found = try db.replies.thread(applicationKey: applicationKey, msisdn: digits, before: beforeMs, limit: limit + 1)
            let unread = try db.replies.conversation(applicationKey: applicationKey, msisdn: digits)?.unread ?? 0
            return ConversationThread(number: digits, entries: found.prefix(limit).reversed().map(\.entry), unread: unread,
                                      hasMore: found.count > limit)
        }
    }

    // MARK: - Seen marks

    /// Marks `number`'s replies seen: all of them, or those up to and including the reply `upTo`. Announced by
    /// `.conversationSeen` when it marked any. A 404 when the number never replied or `upTo` is not one of its replies.
    public nonisolated func markSeen(applicationKey: String, number: String, upTo: String? = nil) async throws -> MarkSeenResult {
        var input = WireInput()
        let msisdn = ConversationNumber.wire(number)
        if msisdn == nil { input.refuse("number", "not a number: write it as E.164 digits (385981234567)") }
        input.identifier("upTo", upTo, maxLength: Self.maxReplyId)
        try input.check("invalid seen mark")
        let digits = msisdn ?? ""
        let at = nowMs
        let result = try await store.write { [self] db -> MarkSeenResult in
            guard let summary = try db.replies.conversation(applicationKey: applicationKey, msisdn: digits), summary.replies > 0 else {
                throw APIError.notFound("no replies from +\(digits)")
            }
            var position: (receivedAt: Int64, messageId: String)?
            if let upTo {
                guard let found = try db.replies.position(applicationKey: applicationKey, msisdn: digits, messageId: upTo) else {
                    throw APIError.notFound("+\(digits) sent no reply \(upTo)")
                }
                position = found
            }
            let (marked, unread) = try db.replies.markSeen(applicationKey: applicationKey, msisdn: digits, upTo: position, at: at)
            let total = try db.replies.unreadTotal(applicationKey: applicationKey)
            if marked > 0 {
                try appendEvent(db, applicationKey: applicationKey, .conversationSeen(number: digits, unread: unread, unreadTotal: total))
            }
            return MarkSeenResult(marked: marked, unread: unread, unreadTotal: total)
        }
        if result.marked > 0 { bell.ring() }
        return result
    }
}
