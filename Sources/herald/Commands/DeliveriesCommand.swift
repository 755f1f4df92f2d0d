import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald deliveries …`: what Deliveries' query answers, from the command line.
struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "Find recipients by status, reason, country, sender, who sent, time or price; break them down; export them.",
        discussion: """
            A query is the one Deliveries' / reads: plain words (name, number, reason, text) and terms \
            status:failed|pending|invited|uncertain|cancelled, reason:"absent subscriber", country:HR, sender:ID, by:NAME, \
            bulk:ID, text:WORD, after:2026-11-20|7d, before:12h, price>:0.05, price<:1, network: (matches nothing: \
            delivery reports do not name the network), "a phrase", and -term for not.
            """,
        subcommands: [DeliveriesList.self, DeliveriesExport.self], defaultSubcommand: DeliveriesList.self)

    /// Reads `--query`; a query that cannot be read exits 1 with what to write instead.
    static func query(_ text: String?, _ search: DeliverySearch) throws -> DeliveryQuery {
        do { return try search.query(text ?? "") } catch { throw Output.failure("--query: \(error.message)") }
    }

    /// Says what the query cannot do (on stderr, so that JSON and exports stay clean).
    static func sayNotes(_ query: DeliveryQuery) {
        for note in query.notes { Output.note(note) }
    }
}
