import Foundation
import GRDB
import HeraldCore
import HeraldServices
import HeraldStore

/// `herald-bench deliveries`: Deliveries' query, breakdown and export through `DeliverySearch` (what the pane and
/// `herald deliveries` call) on a ledger of --bulks bulks × --per-bulk recipients (10,000 × 20 = 200,000 by default):
/// 20,000 people with numbers in six countries, statuses, reasons, prices, five sender IDs and four senders spread
/// over 60 days. Targets: a query (its count, bulks and first page of 200) ≤ 50 ms p95, a reason breakdown ≤ 100 ms,
/// an export of every row to CSV ≤ 2 s with memory as flat as for 2,000 rows.
func deliveriesBench(_ o: BenchOptions, dir: URL) async throws {
    // --data DIR keeps the ledger there (seeded once) to look at afterwards.
    let folder = o.data.map { URL(fileURLWithPath: $0) } ?? dir.appendingPathComponent("deliveries")
    let database = try HeraldDatabase.open(inDirectory: folder)
    var seeded = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invitation") ?? 0 }
    if seeded == 0 {
        let seedTime = try seconds { seeded = try DeliveriesSeed.fill(database, bulks: o.bulks, perBulk: o.perBulk) }
        say("deliveries: ledger of \(o.bulks) bulks, \(seeded) recipients, seeded in \(fmt(seedTime)) s")
    } else {
        say("deliveries: ledger of \(seeded) recipients in \(folder.path)")
    }
    let clock = SystemClock()
    let search = DeliverySearch(database: database, clock: clock)

    let queries = ["status:failed", "status:failed country:HR after:7d", #"reason:"absent subscriber""#,
                   "sender:Events -status:invited", "by:marta price>:0.05", "ivan", "bulk:bench-bulk-0099",
                   "text:party before:30d", "country:SI status:pending", ""]
    // What `/` asks (the count and the bulks, `matches`), and what a list of recipients asks (a page of 200).
    var all: [Double] = []
    for text in queries {
        let query = try search.query(text)
        var times: [Double] = [], pages: [Double] = []
        var total = 0, bulks = 0
        for _ in 0..<o.rounds {
            times.append(try await asyncSeconds {
                let matches = try await search.matches(query)
                total = matches.total
                bulks = matches.bulks.count
            } * 1000)
            pages.append(try await asyncSeconds { _ = try await search.recipients(query, range: 0..<200) } * 1000)
        }
        all += times
        say("deliveries: query \(text.isEmpty ? "(everything)" : text) → \(total) recipients in \(bulks) bulks: \(summary(times)); "
            + "first 200: \(summary(pages))")
    }
    say("deliveries: every query above together: \(summary(all))")

    for (text, dimension) in [("status:failed", DeliveryDimension.reason), ("", .reason), ("", .country), ("after:30d", .sender)] {
        let query = try search.query(text)
        var times: [Double] = []
        var groups = 0
        for _ in 0..<max(5, o.rounds / 3) {
            times.append(try await asyncSeconds { groups = try await search.breakdown(query, by: dimension).groups.count } * 1000)
        }
        say("deliveries: breakdown of \(text.isEmpty ? "everything" : text) by \(dimension.rawValue) (\(groups) groups): \(summary(times))")
    }

    for (label, text) in [("2,000 rows", "bulk:bench-bulk-0000"), ("every row", "")] {
        let query = try search.query(text)
        let file = folder.appendingPathComponent("export-\(label.filter(\.isNumber)).csv").path
        let before = currentRSSMegabytes()
        resetPeakRSS()
        var rows = 0
        let time = try await asyncSeconds { rows = try await search.export(query, format: .csv, to: file).rows }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        say("deliveries: export of \(label) to CSV: \(rows) rows, \(fmt(Double(bytes) / 1_048_576, 1)) MB in \(fmt(time, 3)) s; "
            + "RSS \(fmt(before, 1)) MB before, \(fmt(currentRSSMegabytes(), 1)) MB after, peak during \(fmt(peakRSSMegabytes(), 1)) MB")
        try? FileManager.default.removeItem(atPath: file)
    }
}

func asyncSeconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Starts the peak resident memory (VmHWM) afresh from what is resident now (Linux: `5` to clear_refs).
func resetPeakRSS() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// Writes the bench ledger straight to SQLite (the figures are about reading it).
enum DeliveriesSeed {
    static let countries: [(prefix: String, digits: Int)] = [
        ("+38591", 7), ("+38598", 7), ("+38640", 6), ("+38164", 7), ("+49151", 8), ("+1202555", 4),
    ]
    static let reasons = ["Absent subscriber", "Unknown subscriber", "Network timeout", "Blocked by carrier",
                          "Handset memory full", "Destination not reachable"]
    static let senders = ["Herald", "Events", "Support", "Billing", "News"]
    static let who = ["Marta", "Ivan", "desk-key", "ops-key"]
    static let firstNames = ["Ana", "Ivan", "Marija", "Luka", "Petra", "Josip", "Maja", "Marko", "Iva", "Tomislav"]
    static let lastNames = ["Horvat", "Kovačević", "Babić", "Marić", "Novak", "Jurić", "Knežević", "Vuković"]

    static func fill(_ database: HeraldDatabase, bulks: Int, perBulk: Int, people: Int = 20_000) throws -> Int {
        let parser = try PhoneNumberParser(defaultRegion: nil)
        let numbers: [(e164: String, region: String?)] = (0..<people).map { i in
            let c = countries[i % countries.count]
            let digits = String(format: "%0\(c.digits)d", (1_000_003 * (i + 1)) % Int(pow(10, Double(c.digits))))
            let e164 = c.prefix + digits
            return (e164, parser.parse(e164).region)
        }
        let now = Date().epochMilliseconds
        var rows = 0
        try database.write { db in
            let person = try db.makeStatement(sql: """
                INSERT INTO person (id, first_name, last_name, formatted_name, created_ms, updated_ms, sort_first, sort_last,
                                    search_key, phone_key) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?)
                """)
            let phone = try db.makeStatement(sql: """
                INSERT INTO phone (person_id, position, raw, e164, kind, region) VALUES (?, 0, ?, ?, 'mobile', ?)
                """)
            for (i, n) in numbers.enumerated() {
                let first = firstNames[i % firstNames.count], last = lastNames[(i / firstNames.count) % lastNames.count]
                let folded = TextFolding.fold(first) + "\u{1F}" + TextFolding.fold(last)
                try person.execute(arguments: [i + 1, first, last, "\(first) \(last)", TextFolding.fold("\(first) \(last)"),
                                               TextFolding.fold("\(last) \(first)"), folded, n.e164.filter(\.isNumber)])
                try phone.execute(arguments: [i + 1, n.e164, n.e164, n.region])
            }
            let bulk = try db.makeStatement(sql: """
                INSERT INTO bulk (bulk_id, created_ms, message_text, sender, recipient_count, passes_done, sent_here, sent_by)
                VALUES (?, ?, ?, ?, ?, 10, 1, ?)
                """)
            let invitation = try db.makeStatement(sql: """
                INSERT INTO invitation (msisdn, person_id, bulk_id, message_id, correlator, status, created_ms, updated_ms,
                                        error, price, currency, permanent, country)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let statuses: [DeliveryStatus] = [.deliveredToTerminal, .deliveredToTerminal, .deliveredToTerminal, .deliveredToTerminal,
                                              .deliveryImpossible, .deliveredToNetwork, .messageWaiting, .deliveryUncertain,
                                              .rejected, .deliveredToTerminal]
            let span: Int64 = 60 * 86_400_000
            for b in 0..<bulks {
                let id = String(format: "bench-bulk-%06d", b)
                let created = now - span + span * Int64(b) / Int64(max(1, bulks))
                let text = b % 7 == 0 ? "Party at 8, join me on Herald {LINK}" : "Join me on Herald {LINK}"
                try bulk.execute(arguments: [id, created, text, senders[b % senders.count], perBulk, who[b % who.count]])
                for r in 0..<perBulk {
                    let index = (b * perBulk + r * 7919) % numbers.count
                    let n = numbers[index]
                    let status = statuses[(b * 3 + r) % statuses.count]
                    let failed = status.isImpossible || status == .deliveryUncertain
                    let reason: String? = failed ? reasons[(b + r) % reasons.count] : nil
                    let price: Double? = status == .rejected ? nil : [0.02, 0.035, 0.05, 0.075][(b + r) % 4]
                    let personId: Int? = r % 5 == 4 ? nil : index + 1
                    try invitation.execute(arguments: [n.e164, personId, id, "\(id)-m\(r)", "\(id)-c\(r)", status.rawValue, created,
                                                       created, reason, price, price == nil ? nil : "EUR",
                                                       reason == "Unknown subscriber", n.region])
                    rows += 1
                }
            }
            // As the ledger keeps it at insert: an invitation followed by another to the same number is superseded.
            try db.execute(sql: """
                UPDATE invitation SET superseded = 1 WHERE EXISTS (
                    SELECT 1 FROM invitation j WHERE j.msisdn = invitation.msisdn
                    AND (j.created_ms > invitation.created_ms OR (j.created_ms = invitation.created_ms AND j.id > invitation.id)))
                """)
        }
        return rows
    }
}
