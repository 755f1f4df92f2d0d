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
        let events = ws.bus.stream()
        let interrupt = SignalTrap(SIGINT)
        let bus = ws.bus
        interrupt.onSignal { bus.close() }  // ends the event stream: the loop below returns
        ws.startTracking()
        let names = NameCache(ws: ws)
        if !json { FileHandle.standardError.write(Data("herald: watching deliveries in \(ws.dataDirectory.path) (Ctrl-C to stop)\n".utf8)) }
        for await event in events {
            guard case .deliveryChanged(let change) = event else { continue }
            let address = change.address.hasPrefix("+") ? change.address : "+" + change.address
            if json {
                emit(try Output.json(WatchJSON(bulkId: change.bulkId, address: address, messageId: change.messageId,
                                               personId: change.personId, from: change.from?.rawValue, to: change.to.rawValue,
                                               at: Output.iso(change.at))))
            } else {
                let name = names.name(change.personId)
                emit("\(Output.iso(change.at))  \(change.bulkId)  \(address)  \(Output.safe(name))  \(change.from?.label ?? "-") → \(change.to.label)")
            }
        }
        interrupt.cancel()
        ws.close()
    }

    /// Writes one line at once, so a reader on a pipe sees it immediately.
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Display names by person id, looked up once.
final class NameCache {
    private let ws: Workspace
    private var names: [Int64: String] = [:]
    init(ws: Workspace) { self.ws = ws }

    func name(_ id: Int64?) -> String {
        guard let id else { return "" }
        if let n = names[id] { return n }
        let n = (try? ws.contacts.person(id: id)?.displayName) ?? ""
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
