import Foundation
import HeraldAPI
import HeraldStore

/// One invitation request as it is about to be sent: kept in the store's settings from before the
/// ledger rows are queued until the platform answered, so a send interrupted by a crash can be
/// replayed with the same correlators (the platform answers a replay with the earlier result).
struct PendingSend: Codable, Sendable, Hashable {
    var id: String
    var messageKey: String
    var messageText: String?
    var sender: String
    var destinations: [SendInvitationBody.Destination]
    /// Person of each destination, by correlator (the destination's messageId).
    var personIds: [String: Int64]

    var body: SendInvitationBody {
        SendInvitationBody(messageKey: messageKey, sender: sender, destinations: destinations)
    }

    /// The same request restricted to these correlators.
    func restricted(to correlators: Set<String>) -> PendingSend {
        var copy = self
        copy.destinations = destinations.filter { $0.messageId.map(correlators.contains) ?? false }
        return copy
    }
}

/// Reads and writes `PendingSend`s in the `setting` table under `invite.pending.<id>`.
struct PendingSendJournal: Sendable {
    static let prefix = "invite.pending."
    let settings: SettingsStore

    func save(_ send: PendingSend) throws {
        let data = try JSONEncoder().encode(send)
        try settings.set(Self.prefix + send.id, String(decoding: data, as: UTF8.self))
    }

    func remove(id: String) throws {
        try settings.set(Self.prefix + id, nil)
    }

    /// Every journaled send; unreadable entries are returned as ids to drop.
    func all() throws -> (sends: [PendingSend], unreadable: [String]) {
        var sends: [PendingSend] = []
        var bad: [String] = []
        for (key, value) in try settings.all() where key.hasPrefix(Self.prefix) {
            let id = String(key.dropFirst(Self.prefix.count))
            if let send = try? JSONDecoder().decode(PendingSend.self, from: Data(value.utf8)) {
                sends.append(send)
            } else {
                bad.append(id)
            }
        }
        return (sends.sorted { $0.id < $1.id }, bad)
    }
}
