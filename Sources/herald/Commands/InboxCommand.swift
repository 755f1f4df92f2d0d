import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald inbox …`: read a user's in-app inbox.
struct InboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox", abstract: "Read a user's inbox and mark messages seen.",
        subcommands: [InboxList.self, InboxSeen.self])
}

/// `herald inbox list`.
struct InboxList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List a user's inbox messages, newest first.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("External user id (case-sensitive).", valueName: "user"))
    var user: String

    @Option(help: "Only this topic.")
    var topic: String?

    @Option(help: ArgumentHelp("Sent at or after (ISO 8601 or epoch milliseconds).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Sent before (ISO 8601 or epoch milliseconds).", valueName: "time"))
    var to: String?

    // `.unconditional`: `--limit -5` is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: "At most this many messages (pages are fetched as needed).")
    var limit: Int = InboxFilter.defaultLimit

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        guard limit > 0 else { throw Output.failure("--limit must be 1 or more") }
        let fromDate = try from.map { try Output.parseTime($0, option: "--from") }
        let toDate = try to.map { try Output.parseTime($0, option: "--to") }
        if let fromDate, let toDate, fromDate >= toDate { throw Output.failure("--from must be before --to") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        var messages: [InboxMessage] = []
        var counts = InboxCounts.zero
        var fromCache = false
        do {
            let pageSize = min(limit, 1000)
            var page = try await ws.inbox.fetch(user: user, filter: InboxFilter(topic: topic, from: fromDate, to: toDate, limit: pageSize))
            counts = page.counts
            fromCache = page.fromCache
            messages = page.messages
            while messages.count < limit, page.hasMore, !page.fromCache {
                page = try await ws.inbox.nextPage(after: page)
                if page.messages.isEmpty { break }
                messages += page.messages
            }
        } catch {
            throw Output.failure(for: error)
        }
        messages = Array(messages.prefix(limit))
        if fromCache { Output.warn("the platform could not be reached: showing the local copy") }
        let pending = await ws.inbox.pendingSeenCount(user: user)
        if pending > 0 { Output.warn("\(counted(pending, "seen mark")) could not be sent yet; they are retried on the next inbox command") }
        if json {
            try Output.printJSON(InboxJSON(countTotal: counts.total, countUnread: counts.unread, messages: messages.map {
                InboxJSON.Message(messageId: $0.messageId, title: $0.title, text: $0.body, topic: $0.topic, seen: $0.seen,
                                  sendDateTime: $0.sendDateTime.epochMilliseconds)
            }))
            return
        }
        print("\(counted(counts.total, "message")), \(counts.unread) unread" + (counts.totalFiltered != counts.total ? "; \(counts.totalFiltered) match" : ""))
        guard !messages.isEmpty else { return }
        var table = OutputTable(headers: ["", "SENT", "TOPIC", "TITLE", "TEXT", "ID"], maxWidths: [1, 20, 12, 28, 48, 36])
        for m in messages {
            table.add([m.seen ? " " : "•", Output.iso(m.sendDateTime).prefix(16).replacingOccurrences(of: "T", with: " "),
                       m.topic ?? "", m.title ?? "", m.body.replacingOccurrences(of: "\n", with: " "), m.messageId])
        }
        print(table.render(), terminator: "")
    }
}

/// `herald inbox seen`.
struct InboxSeen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "seen", abstract: "Mark inbox messages seen.")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("External user id (case-sensitive).", valueName: "user"))
    var user: String

    @Argument(help: ArgumentHelp("Message ids (from `herald inbox list`).", valueName: "id"))
    var ids: [String]

    func run() async throws {
        guard !ids.isEmpty else { throw Output.failure("give at least one message id (see `herald inbox list --user \(user)`)") }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        do {
            let unknown = try await unknownIds(ws)
            let known = ids.filter { !unknown.contains($0) }
            if !known.isEmpty {
                let result = try await ws.inbox.markSeen(user: user, messageIds: known)
                var parts = ["\(result.marked.count) marked seen"]
                if !result.alreadySeen.isEmpty { parts.append("\(result.alreadySeen.count) already seen") }
                print(parts.joined(separator: ", "))
            }
            if !unknown.isEmpty {
                throw Output.failure("not in \(Output.safe(user))'s inbox: \(unknown.map(Output.safe).joined(separator: ", ")); "
                    + "list the message ids with `herald inbox list --user \(Output.safe(user))` (user ids are case-sensitive)")
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Output.failure(for: error)
        }
    }

    /// Ids that are not in the user's inbox: looked up in the local copy, then in the platform's pages.
    /// Empty when the platform cannot be reached (the marks are then queued as they are).
    private func unknownIds(_ ws: Workspace) async throws -> Set<String> {
        var missing = Set(ids).subtracting(await ws.inbox.cached(user: user).map(\.messageId))
        guard !missing.isEmpty else { return [] }
        var page = try await ws.inbox.fetch(user: user, filter: InboxFilter(limit: 1000))
        while true {
            if page.fromCache { return [] }
            missing.subtract(page.messages.map(\.messageId))
            guard !missing.isEmpty, page.hasMore else { break }
            page = try await ws.inbox.nextPage(after: page)
            if page.messages.isEmpty { break }
        }
        return missing
    }
}

/// `herald inbox list --json`.
struct InboxJSON: Encodable {
    struct Message: Encodable {
        var messageId: String
        var title: String?
        var text: String
        var topic: String?
        var seen: Bool
        /// Epoch milliseconds, as the wire writes it.
        var sendDateTime: Int64

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(messageId, forKey: .messageId)
            try c.encode(title, forKey: .title)
            try c.encode(text, forKey: .text)
            try c.encode(topic, forKey: .topic)
            try c.encode(seen, forKey: .seen)
            try c.encode(sendDateTime, forKey: .sendDateTime)
        }
        enum CodingKeys: String, CodingKey { case messageId, title, text, topic, seen, sendDateTime }
    }

    var countTotal: Int
    var countUnread: Int
    var messages: [Message]
}
