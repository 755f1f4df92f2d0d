import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices
import HeraldTUI

/// `herald watch`: follows every bulk with pending recipients and prints each status change.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print delivery status changes and replies as they happen, until Ctrl-C.",
        discussion: """
            Also picks up bulks sent by another Herald on the same data folder, and SMS replies as they arrive (with \
            --json: {"event":"reply",…} lines). With --notify, also gives a notice when a \
            bulk settles, when its failures reach [notify] failures, and when a message arrives in an inbox named by \
            --inbox: a line on stdout, and the [notify] command, notify-send or the terminal's notification (see [notify] \
            in herald-config(5)). Each notice is given once, whichever Herald on the data folder gives it.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    @Flag(help: "Also give notices: a bulk settled, its failures over [notify] failures, an inbox message or an SMS reply arrived.")
    var notify = false

    @Option(name: .customLong("inbox"), help: ArgumentHelp("With --notify, an inbox to follow (repeatable): its external user id.", valueName: "user"))
    var inboxUsers: [String] = []

    func run() async throws {
        if !inboxUsers.isEmpty && !notify { throw Output.failure("--inbox follows an inbox for notices: add --notify") }
        if let empty = inboxUsers.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw Output.failure("--inbox \"\(empty)\" is not a user id: give the external user id (it is case-sensitive)")
        }
        // Read before the workspace opens: a [notify] that cannot be used is said before anything is watched.
        let notices: NotifySettings? = notify ? try NotifySettings(Self.loadConfig(global)) : nil
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        // The change feed starts from the ledger as it is now: only what changes from then on is printed,
        // whoever changes it (this process's tracker, or another Herald on the same data folder).
        let events = ws.bus.stream()
        let json = json
        let notifier = notices.flatMap { settings -> Notifier? in
            settings.enabled ? Self.startNotices(settings, ws: ws, inboxUsers: Set(inboxUsers), json: json) : nil
        }
        defer { notifier?.task.cancel() }
        try await ws.startFeed()
        ws.startTracking()
        // Also with --json (stdout stays JSON only): a script may wait for this line before sending.
        FileHandle.standardError.write(Data("herald: watching deliveries in \(ws.dataDirectory.path) (Ctrl-C to stop)\n".utf8))
        let loop = Task {
            let names = NameCache(ws: ws)
            for await event in events {
                if case .repliesChanged(let replies) = event {
                    do { Self.emit(try Self.line(replies, json: json)) } catch {
                        Self.warn("could not write the reply of \(replies.number) as JSON: \(error)")
                    }
                    continue
                }
                guard case .ledgerChanged(let change) = event else { continue }
                for delivery in change.deliveries.sorted(by: { $0.at < $1.at }) {
                    do { Self.emit(try await Self.line(delivery, json: json, names: names)) } catch {
                        Self.warn("could not write the change of \(delivery.address) in \(delivery.bulkId) as JSON: \(error)")
                    }
                }
                // A notice follows the changes that called for it.
                if let notifier { for notice in await notifier.watcher.consider(change) { await notifier.deliver(notice) } }
            }
        }
        let interrupt = SignalTrap(SIGINT)
        interrupt.onSignal { loop.cancel() }
        await loop.value
        interrupt.cancel()
    }

    private static func line(_ change: DeliveryChange, json: Bool, names: NameCache) async throws -> String {
        let address = change.address.hasPrefix("+") || change.address.contains("@") ? change.address : "+" + change.address
        if json {
            return try Output.json(WatchJSON(bulkId: change.bulkId, address: address, messageId: change.messageId,
                                             personId: change.personId, from: change.from?.rawValue, to: change.to.rawValue,
                                             at: Output.iso(change.at)))
        }
        let name = await names.name(change.personId)
        return "\(Output.iso(change.at))  \(change.bulkId)  \(address)  \(Output.safe(name))  \(change.from?.label(for: address) ?? "new") → \(change.to.label(for: address))"
    }

    /// A reply that arrived (`{"event":"reply",…}`) or seen marks that changed (`{"event":"replies-seen",…}`).
    private static func line(_ change: RepliesChange, json: Bool) throws -> String {
        if json {
            return try Output.json(WatchReplyJSON(event: change.reply == nil ? "replies-seen" : "reply", number: change.number,
                                                  name: change.name, messageId: change.reply?.messageId, text: change.reply?.text,
                                                  at: change.reply.map { Output.iso($0.at) }, optedOut: change.optedOut,
                                                  unreadTotal: change.unreadTotal))
        }
        guard let reply = change.reply else {
            return "\(Output.iso(Date()))  replies  \(change.number)  seen; \(change.unreadTotal) unread in all"
        }
        let from = change.name.map { "\($0) (\(change.number))" } ?? change.number
        let text = reply.text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(Output.iso(reply.at))  reply  \(Output.safe(from))  \(Output.safe(text))\(change.optedOut ? "  (opted out)" : "")"
    }

    /// The config file, read quietly (opening the workspace says its warnings).
    private static func loadConfig(_ global: GlobalOptions) throws -> HeraldConfig {
        do { return try HeraldConfig.load(from: global.paths.configFile) } catch {
            throw Output.failure("\(error)\nFix the file or move it aside to use the defaults.")
        }
    }

    /// Starts giving notices: each is printed (a line, or a JSON object with --json) and handed where `[notify]` says.
    /// The terminal's own notification goes to stderr when that is a terminal (stdout may be a pipe).
    private static func startNotices(_ settings: NotifySettings, ws: Workspace, inboxUsers: Set<String>, json: Bool) -> Notifier {
        let environment = ProcessInfo.processInfo.environment
        let terminal = isatty(STDERR_FILENO) == 1 ? TerminalNotification.detect(environment: environment) : nil
        let route = settings.route(terminal: terminal, environment: environment)
        let watcher = ws.attention(settings.attention(inboxUsers: inboxUsers, followLoadedInboxes: false,
                                                      inboxPollInterval: ws.connection.kind.inboxRefreshInterval))
        let events = ws.bus.stream()
        let deliver: @Sendable (AttentionNotice) async -> Void = { notice in
            do { emit(try noticeLine(notice, json: json)) } catch { warn("could not write a notice as JSON: \(error)") }
            if let terminal = route.terminal {
                FileHandle.standardError.write(Data(terminal.bytes(title: "Herald: " + notice.title, body: notice.body)))
            }
            await route.program?.run(notice, environment: environment)
        }
        // The bulks' notices are decided by the loop that prints the changes (after them); inboxes here.
        return Notifier(watcher: watcher, deliver: deliver,
                        task: Task.detached { await watcher.run(events: events, bulks: false, deliver: deliver) })
    }

    /// What gives `herald watch --notify`'s notices.
    struct Notifier: Sendable {
        let watcher: AttentionWatcher
        let deliver: @Sendable (AttentionNotice) async -> Void
        let task: Task<Void, Never>
    }

    private static func noticeLine(_ notice: AttentionNotice, json: Bool) throws -> String {
        if json {
            return try Output.json(WatchNoticeJSON(notice: notice.kind.rawValue, subject: notice.subject, title: notice.title,
                                                   body: notice.body, at: Output.iso(notice.at)))
        }
        return "\(Output.iso(notice.at))  notice  \(notice.line)"
    }

    /// A problem on stderr (stdout stays the changes only, JSON with --json).
    static func warn(_ text: String) {
        FileHandle.standardError.write(Data("herald: \(Output.safe(text))\n".utf8))
    }

    /// Writes one line at once, so a reader on a pipe sees it immediately; ids and addresses come from the platform,
    /// so the line is made terminal-safe whole.
    private static func emit(_ line: String) {
        Output.write(line + "\n")
    }
}

/// Display names by person id, looked up once.
final class NameCache {
    private let book: ContactBook
    private var names: [Int64: String] = [:]
    init(ws: Workspace) { book = ws.book }

    func name(_ id: Int64?) async -> String {
        guard let id else { return "" }
        if let n = names[id] { return n }
        // A name that cannot be read is left blank on the line, and the cause said once on stderr.
        var n = ""
        do { n = try await book.person(id: id)?.displayName ?? "" } catch {
            WatchCommand.warn("could not read the name of person \(id): \(error)")
        }
        names[id] = n
        return n
    }
}

/// One line of `herald watch --json`.
struct WatchJSON: Encodable {
    var bulkId: String
    var address: String
    var messageId: String?
    var personId: Int64?
    var from: String?
    var to: String
    var at: String

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bulkId, forKey: .bulkId)
        try c.encode(address, forKey: .address)
        try c.encode(messageId, forKey: .messageId)
        try c.encode(personId, forKey: .personId)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(at, forKey: .at)
    }
    enum CodingKeys: String, CodingKey { case bulkId, address, messageId, personId, from, to, at }
}

/// One notice of `herald watch --notify --json`: `notice` is its kind (bulk-settled, bulk-failures, inbox-message, reply).
struct WatchNoticeJSON: Encodable {
    var notice: String
    var subject: String
    var title: String
    var body: String
    var at: String
}

/// A reply line of `herald watch --json`: `event` is `reply` (one arrived) or `replies-seen` (seen marks changed).
struct WatchReplyJSON: Encodable {
    var event: String
    var number: String
    var name: String?
    var messageId: String?
    var text: String?
    var at: String?
    var optedOut: Bool
    var unreadTotal: Int

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(event, forKey: .event)
        try c.encode(number, forKey: .number)
        try c.encode(name, forKey: .name)
        try c.encode(messageId, forKey: .messageId)
        try c.encode(text, forKey: .text)
        try c.encode(at, forKey: .at)
        try c.encode(optedOut, forKey: .optedOut)
        try c.encode(unreadTotal, forKey: .unreadTotal)
    }
    enum CodingKeys: String, CodingKey { case event, number, name, messageId, text, at, optedOut, unreadTotal }
}
