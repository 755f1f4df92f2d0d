import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald replies show N [--json] [--mark-seen]`: one number's thread, oldest first.
struct RepliesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show the conversation with a number, oldest first.",
        discussion: "Reading marks nothing seen; --mark-seen marks its replies seen after showing them.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The number (with its country code, or national with --region).", valueName: "number"))
    var number: String

    // `.unconditional`: `--limit -5` is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: "At most this many of the newest messages (1 to 1000).")
    var limit: Int = 1000

    @Flag(name: .customLong("mark-seen"), help: "Mark the conversation's replies seen after showing them.")
    var markSeen = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        guard (1...1000).contains(limit) else { throw Output.failure("--limit must be 1 to 1000") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        if markSeen, let reason = ws.readOnlyReason {
            throw Output.failure("--mark-seen changes the seen marks, and \(reason); leave --mark-seen out to read")
        }
        let detail: ConversationDetail
        do { detail = try await ws.conversations.thread(number: number, limit: limit) } catch {
            throw Output.failure(for: error)
        }
        if json {
            try Output.printJSON(RepliesShowJSON(detail))
        } else {
            print("Conversation with \(RepliesCommand.who(detail.number, name: detail.name)): "
                  + "\(counted(detail.entries.count, "message")), \(detail.unread) unread"
                  + (detail.name == nil ? "; the number is in nobody's card" : ""))
            if detail.hasMore { print("(older messages left out: raise --limit)") }
            for entry in detail.entries {
                let head: String
                switch entry.kind {
                case .reply: head = "← \(entry.seen ? " " : "•")"
                case .sent: head = "→  "
                }
                let status = entry.status.map { "  [\($0.label(for: detail.number))]" } ?? ""
                print("\(RepliesCommand.minute(entry.at))  \(head) \(RepliesCommand.oneLine(entry.text))\(status)")
            }
            if detail.entries.isEmpty { Output.note("nothing was sent to or received from \(Output.safe(detail.number)) yet") }
        }
        if markSeen, detail.unread > 0 {
            do {
                let marked = try await ws.conversations.markSeen(number: detail.number)
                Output.note("\(counted(marked, "reply", "replies")) marked seen")
            } catch {
                throw Output.failure(for: error)
            }
        }
    }
}

/// `herald replies show --json`.
struct RepliesShowJSON: Encodable {
    struct Entry: Encodable {
        var kind: String
        var messageId: String
        var at: String
        var text: String
        var status: String?
        var bulkId: String?
        var seen: Bool

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(messageId, forKey: .messageId)
            try c.encode(at, forKey: .at)
            try c.encode(text, forKey: .text)
            try c.encode(status, forKey: .status)
            try c.encode(bulkId, forKey: .bulkId)
            try c.encode(seen, forKey: .seen)
        }
        enum CodingKeys: String, CodingKey { case kind, messageId, at, text, status, bulkId, seen }
    }
    var number: String
    var personId: Int64?
    var name: String?
    var unread: Int
    var hasMore: Bool
    var entries: [Entry]

    init(_ detail: ConversationDetail) {
        number = detail.number
        personId = detail.personId
        name = detail.name
        unread = detail.unread
        hasMore = detail.hasMore
        entries = detail.entries.map {
            Entry(kind: $0.kind.rawValue, messageId: $0.messageId, at: Output.iso($0.at), text: $0.text,
                  status: $0.status?.rawValue, bulkId: $0.bulkId, seen: $0.seen)
        }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(number, forKey: .number)
        try c.encode(personId, forKey: .personId)
        try c.encode(name, forKey: .name)
        try c.encode(unread, forKey: .unread)
        try c.encode(hasMore, forKey: .hasMore)
        try c.encode(entries, forKey: .entries)
    }
    enum CodingKeys: String, CodingKey { case number, personId, name, unread, hasMore, entries }
}
