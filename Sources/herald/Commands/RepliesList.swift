import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald replies list [--unread] [--from N] [--json]`: conversations newest first, with unread counts.
struct RepliesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List conversations, newest first, with their unread replies.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only conversations with unread replies.")
    var unread = false

    @Option(help: ArgumentHelp("Only the conversation of this number.", valueName: "number"))
    var from: String?

    // `.unconditional`: `--limit -5` is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: "At most this many conversations (1 to 1000).")
    var limit: Int = 200

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        guard (1...1000).contains(limit) else { throw Output.failure("--limit must be 1 to 1000") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let page: ConversationPage
        do { page = try await ws.conversations.list(unreadOnly: unread, from: from, limit: limit) } catch {
            throw Output.failure(for: error)
        }
        if json {
            try Output.printJSON(RepliesListJSON(unreadTotal: page.unreadTotal, hasMore: page.hasMore, conversations: page.rows.map {
                RepliesListJSON.Row(number: $0.number, personId: $0.personId, name: $0.name, lastAt: Output.iso($0.lastAt),
                                    lastText: $0.lastText, lastIsReply: $0.lastIsReply, unread: $0.unread, replies: $0.replies)
            }))
            return
        }
        print("\(counted(page.rows.count, "conversation"))\(page.hasMore ? " (more: raise --limit)" : ""), \(page.unreadTotal) unread "
              + (page.unreadTotal == 1 ? "reply" : "replies"))
        guard !page.rows.isEmpty else {
            if from == nil && !unread { Output.note("no replies yet: a reply to an invitation shows here") }
            return
        }
        var table = OutputTable(headers: ["NUMBER", "NAME", "UNREAD", "REPLIES", "LAST", "", "TEXT"],
                                maxWidths: [17, 24, 6, 7, 16, 4, 60])
        for row in page.rows {
            table.add([row.number, row.name ?? "(unknown)", row.unread == 0 ? "" : String(row.unread), String(row.replies),
                       RepliesCommand.minute(row.lastAt), row.lastIsReply ? "←" : "→", RepliesCommand.oneLine(row.lastText)])
        }
        print(table.render(), terminator: "")
    }
}

/// `herald replies list --json`.
struct RepliesListJSON: Encodable {
    struct Row: Encodable {
        var number: String
        var personId: Int64?
        var name: String?
        var lastAt: String
        var lastText: String
        var lastIsReply: Bool
        var unread: Int
        var replies: Int

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(number, forKey: .number)
            try c.encode(personId, forKey: .personId)
            try c.encode(name, forKey: .name)
            try c.encode(lastAt, forKey: .lastAt)
            try c.encode(lastText, forKey: .lastText)
            try c.encode(lastIsReply, forKey: .lastIsReply)
            try c.encode(unread, forKey: .unread)
            try c.encode(replies, forKey: .replies)
        }
        enum CodingKeys: String, CodingKey { case number, personId, name, lastAt, lastText, lastIsReply, unread, replies }
    }
    var unreadTotal: Int
    var hasMore: Bool
    var conversations: [Row]
}
