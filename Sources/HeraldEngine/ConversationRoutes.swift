import Foundation
import HeraldAPI

/// Conversations on the wire: any key reads the list and the threads; marking replies seen is a change, for a sender
/// or admin key. A caller who sees numbers masked gets them masked in every answer (the route adapter), and in the
/// reply events of the stream (the server's event mask).
extension PlatformEngine {
    static let conversationRoutes: [EngineRoute] = [
        EngineRoute(ListConversations.self, .read) { engine, call in try await engine.listConversations(call) },
        EngineRoute(GetConversation.self, .read) { engine, call in try await engine.getConversation(call) },
        // The body is optional: none marks every reply of the number.
        EngineRoute(MarkConversationSeen.self, .send, whenNoBody: MarkSeenBody()) { engine, call in
            try await engine.markConversationSeen(call)
        },
    ]

    nonisolated func listConversations(_ call: EngineCall<ListConversations>) async throws -> ConversationList {
        await collectRepliesOnRead()
        let query = call.request.query
        var input = WireInput()
        var unreadOnly = false
        if let text = query["unread"], !text.isEmpty {
            switch text.lowercased() {
            case "true", "1": unreadOnly = true
            case "false", "0": unreadOnly = false
            default: input.refuse("unread", "must be true or false")
            }
        }
        let from = Self.numberQuery("from", query["from"], &input)
        let before = Self.timeQuery("before", query["before"], &input)
        let limit = input.integer("limit", query["limit"], in: 1...Int64(ListConversations.maxLimit))
        try input.check("invalid conversations query")
        let filter = ConversationFilter(unreadOnly: unreadOnly, from: from, before: before, limit: limit.map(Int.init))
        return try await conversations(applicationKey: call.app.key, filter: filter)
    }

    nonisolated func getConversation(_ call: EngineCall<GetConversation>) async throws -> ConversationThread {
        await collectRepliesOnRead()
        var input = WireInput()
        let number = Self.numberQuery("number", call.path.number, &input)
        let before = Self.timeQuery("before", call.request.query["before"], &input)
        let limit = input.integer("limit", call.request.query["limit"], in: 1...Int64(GetConversation.maxLimit))
        try input.check("invalid conversation query")
        return try await thread(applicationKey: call.app.key, number: number ?? "", before: before,
                                limit: limit.map(Int.init) ?? GetConversation.defaultLimit)
    }

    nonisolated func markConversationSeen(_ call: EngineCall<MarkConversationSeen>) async throws -> MarkSeenResult {
        var input = WireInput()
        let number = Self.numberQuery("number", call.path.number, &input)
        input.identifier("upTo", call.body.upTo, maxLength: Self.maxReplyId)
        try input.check("invalid seen mark")
        return try await markSeen(applicationKey: call.app.key, number: number ?? "", upTo: call.body.upTo)
    }

    /// On a terminal whose engine asks the carrier when read (Infobip directly), a read of conversations first collects
    /// the replies the carrier holds (at most every `repliesInterval`), so opening Conversations shows them.
    nonisolated func collectRepliesOnRead() async {
        if config.collectReportsOnRead { await collectReplies() }
    }

    /// A number of a path or query: E.164 digits (a leading plus allowed); noted as refused otherwise.
    nonisolated static func numberQuery(_ field: String, _ text: String?, _ input: inout WireInput) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard let digits = ConversationNumber.wire(text) else {
            input.refuse(field, "not a number: write it as E.164 digits (385981234567)")
            return nil
        }
        return digits
    }

    /// A time of a query (`WireTime`); noted as refused otherwise.
    nonisolated static func timeQuery(_ field: String, _ text: String?, _ input: inout WireInput) -> Date? {
        guard let text, !text.isEmpty else { return nil }
        guard let date = WireTime.date(text), ClosedRange<Int64>.wireMilliseconds.contains(date.epochMilliseconds) else {
            input.refuse(field, "not a time: write it as 2026-12-01T08:00:00.000Z")
            return nil
        }
        return date
    }
}
