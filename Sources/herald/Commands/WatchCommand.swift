import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald watch`: follows every bulk with pending recipients and prints each status change.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Print delivery status changes as they happen, until Ctrl-C.",
        discussion: "Also picks up bulks sent by another Herald on the same data folder.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object per line.")
    var json = false

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        // The change feed starts from the ledger as it is now: only what changes from then on is printed,
        // whoever changes it (this process's tracker, or another Herald on the same data folder).
        let events = ws.bus.stream()
        try await ws.startFeed()
        ws.startTracking()
        let json = json
        // Also with --json (stdout stays JSON only): a script may wait for this line before sending.
        FileHandle.standardError.write(Data("herald: watching deliveries in \(ws.dataDirectory.path) (Ctrl-C to stop)\n".utf8))
        let loop = Task {
            let names = NameCache(ws: ws)
            for await event in events {
                guard case .ledgerChanged(let change) = event else { continue }
                for delivery in change.deliveries.sorted(by: { $0.at < $1.at }) {
                    do { Self.emit(try await Self.line(delivery, json: json, names: names)) } catch {
                        Self.warn("could not write the change of \(delivery.address) in \(delivery.bulkId) as JSON: \(error)")
                    }
                }
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
