import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald deliveries list`: the recipients a query matches, newest first, or their breakdown.
struct DeliveriesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the recipients a query matches (newest first), or break them down.")

    @OptionGroup var global: GlobalOptions

    // `.unconditional`: `--query -status:invited` is a query that starts with a "not", not an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "What to find (see `herald deliveries --help`), e.g. 'status:failed country:HR after:7d'.", valueName: "query"))
    var query: String?

    @Option(name: .customLong("group-by"), help: ArgumentHelp("Break the matches down by reason, country or sender (ID).",
                                                              valueName: "dimension"))
    var groupBy: String?

    // `.unconditional`: `--limit -5` is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: "Show at most this many recipients (default 100).")
    var limit: Int = 100

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        if limit < 0 { throw Output.failure("--limit must be 0 or more") }
        let dimension = try groupBy.map { name -> DeliveryDimension in
            guard let known = DeliveryDimension(rawValue: name.lowercased()) else {
                throw Output.failure("--group-by \(name) is not a dimension: use reason, country or sender")
            }
            return known
        }
        let search = DeliverySearch(database: try global.openDatabase())
        let query = try DeliveriesCommand.query(self.query, search)
        DeliveriesCommand.sayNotes(query)
        if let dimension {
            try printBreakdown(try await search.breakdown(query, by: dimension))
        } else {
            let matches = try await search.matches(query)
            try printRecipients(matches, try await search.recipients(query, range: 0..<limit))
        }
    }

    private func printRecipients(_ matches: DeliveryMatches, _ recipients: [DeliveryRecipient]) throws {
        if json {
            return try Output.printJSON(DeliveriesListJSON(
                count: matches.total, notes: matches.notes,
                bulks: matches.bulks.map { .init(bulkId: $0.bulkId, createdAt: WireTime.text($0.createdAt), matched: $0.matched,
                                                 recipients: $0.recipientCount) },
                recipients: recipients.map(DeliveriesRecipientJSON.init)))
        }
        if matches.total == 0 {
            print(self.query.map { "No recipients match \"\(Output.safe($0))\"." } ?? "No recipients in the ledger yet: send with `herald send`.")
            return
        }
        var table = OutputTable(headers: ["SENT", "BULK", "NUMBER", "NAME", "COUNTRY", "STATUS", "REASON", "PRICE"],
                                maxWidths: [16, 12, 24, 28, 7, 12, 36, 12])
        for r in recipients {
            table.add([WallClock.timeOrDay(r.sentAt), String(r.bulkId.prefix(12)), r.number, r.name ?? "", r.country ?? "",
                       r.status.label(for: r.number), r.reason ?? "",
                       r.price.map { "\(DeliveriesExportNumbers.price($0)) \(r.currency ?? "")" } ?? ""])
        }
        print(table.render(), terminator: "")
        let bulks = matches.bulks.count
        print("\(recipients.count) of \(counted(matches.total, "recipient")) shown, in \(counted(bulks, "bulk"))")
    }

    private func printBreakdown(_ breakdown: DeliveryBreakdown) throws {
        if json {
            return try Output.printJSON(DeliveriesBreakdownJSON(
                dimension: breakdown.dimension.rawValue, total: breakdown.total,
                groups: breakdown.groups.map {
                    .init(value: $0.key.value, count: $0.count, share: ($0.share * 10_000).rounded() / 10_000,
                          firstSeen: WireTime.text($0.firstSeen), lastSeen: WireTime.text($0.lastSeen), final: $0.final,
                          permanent: $0.permanent, retryable: $0.retryable)
                }))
        }
        if breakdown.total == 0 {
            print(self.query.map { "No recipients match \"\(Output.safe($0))\"." } ?? "No recipients in the ledger yet.")
            return
        }
        var table = OutputTable(headers: [breakdown.dimension.rawValue.uppercased(), "COUNT", "SHARE", "FIRST", "LAST", "FINAL",
                                          "RETRYABLE"],
                                maxWidths: [48, 8, 6, 16, 16, 9, 9])
        for g in breakdown.groups {
            let finality = g.isFinal ? "yes" : (g.final == 0 ? "no" : "\(g.final)/\(g.count)")
            table.add([g.key.label, String(g.count), "\(Int((g.share * 100).rounded()))%", WallClock.timeOrDay(g.firstSeen),
                       WallClock.timeOrDay(g.lastSeen), finality, String(g.retryable)])
        }
        print(table.render(), terminator: "")
        print("\(counted(breakdown.total, "recipient")) in \(counted(breakdown.groups.count, "group"))")
    }
}

struct DeliveriesListJSON: Encodable {
    struct Bulk: Encodable {
        var bulkId: String
        var createdAt: String
        var matched: Int
        var recipients: Int
    }
    var count: Int
    var notes: [String]
    var bulks: [Bulk]
    var recipients: [DeliveriesRecipientJSON]
}

struct DeliveriesRecipientJSON: Encodable {
    var bulkId: String
    var sentAt: String
    var number: String
    var name: String?
    var country: String?
    var state: String
    var status: String
    var reason: String?
    var permanent: Bool
    var price: Double?
    var currency: String?
    var attempts: Int
    var clicks: Int
    var sender: String?
    var sentBy: String?
    var text: String?

    init(_ r: DeliveryRecipient) {
        bulkId = r.bulkId
        sentAt = WireTime.text(r.sentAt)
        number = r.number
        name = r.name
        country = r.country
        state = r.status.state.word
        status = r.status.rawValue
        reason = r.reason
        permanent = r.permanentFailure
        price = r.price
        currency = r.currency
        attempts = r.attempts
        clicks = r.clicks
        sender = r.sender
        sentBy = r.sentBy
        text = r.text
    }
}

struct DeliveriesBreakdownJSON: Encodable {
    struct Group: Encodable {
        /// The reason, country or sender ID; null for the recipients without one.
        var value: String?
        var count: Int
        var share: Double
        var firstSeen: String
        var lastSeen: String
        var final: Int
        var permanent: Int
        var retryable: Int

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(value, forKey: .value)   // null, not left out: a group without a reason is one too
            try c.encode(count, forKey: .count)
            try c.encode(share, forKey: .share)
            try c.encode(firstSeen, forKey: .firstSeen)
            try c.encode(lastSeen, forKey: .lastSeen)
            try c.encode(final, forKey: .final)
            try c.encode(permanent, forKey: .permanent)
            try c.encode(retryable, forKey: .retryable)
        }

        enum CodingKeys: String, CodingKey { case value, count, share, firstSeen, lastSeen, final, permanent, retryable }
    }
    var dimension: String
    var total: Int
    var groups: [Group]
}

/// Prices as people read them: "0.05", never "5e-02".
enum DeliveriesExportNumbers {
    static func price(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
