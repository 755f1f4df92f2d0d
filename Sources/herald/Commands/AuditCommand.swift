import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald audit`: who sent, resent, moved, took back or cancelled a bulk, changed an opt-out or a key; when and from
/// where. On a Herald server the trail is the team's, the same from every terminal (a key's history is for admin keys).
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Who sent, moved, took back or resent what, and when: the platform's audit trail.",
        discussion: """
            Newest first. Every send, resend, move, take-back, cancel, opt-out change and key change is recorded with \
            who (the key's name on a server; the login or sender name here), when, from where (the client's address on \
            a server) and what. Nobody can change or remove an entry.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("bulk"), help: ArgumentHelp("Only what concerns this bulk (and resends of it).", valueName: "id"))
    var bulk: String?

    @Option(help: ArgumentHelp("Only entries since a day (2026-11-20), a day and time (2026-11-20T14:30) or a span back from now (30m, 12h, 7d, 2w).",
                               valueName: "when"))
    var since: String?

    @Option(help: ArgumentHelp("Only one action: \(AuditAction.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "action"))
    var action: String?

    @Option(help: ArgumentHelp("At most this many entries (default 100).", valueName: "n"))
    var limit = 100

    @Flag(help: "Print JSON.")
    var json = false

    static let maxLimit = 100_000

    func run() async throws {
        guard (1...Self.maxLimit).contains(limit) else { throw Output.failure("--limit \(limit): give a number from 1 to \(Self.maxLimit)") }
        var filter = AuditFilter(bulkId: bulk.map { $0.trimmingCharacters(in: .whitespaces) })
        if let since {
            guard let date = Self.moment(since, now: Date(), timeZone: .current) else {
                throw Output.failure("--since \(Output.safe(since)) is not a time: write a day (2026-11-20), a day and time (2026-11-20T14:30) or a span back from now (30m, 12h, 7d, 2w)")
            }
            filter.since = date
        }
        if let action {
            guard let known = AuditAction(rawValue: action.lowercased()) else {
                throw Output.failure("--action \(Output.safe(action)) is not an action: use one of \(AuditAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            filter.action = known
        }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        var entries: [AuditEntry] = []
        do {
            // Page by page (the platform answers at most ListAudit.maxLimit at once), newest first.
            repeat {
                filter.limit = min(limit - entries.count, ListAudit.maxLimit)
                let page = try await ws.audit.entries(filter)
                entries += page.entries
                filter.before = page.nextBefore
            } while filter.before != nil && entries.count < limit
        } catch {
            throw Output.failure(for: error)
        }
        if json { return try Output.printJSON(entries) }
        guard !entries.isEmpty else { return print(bulk == nil ? "Nothing recorded yet." : "Nothing recorded about bulk \(Output.safe(bulk ?? "")).") }
        var table = OutputTable(headers: ["WHEN", "WHO", "FROM", "ACTION", "BULK", "WHAT"], maxWidths: [16, 24, 24, 14, 12, 80])
        for entry in entries {
            let when = WireTime.date(entry.at).map { Self.shown($0) } ?? entry.at
            let from = entry.address == "local" ? entry.role : "\(entry.role), \(entry.address)"
            let what = entry.subject.map { entry.bulkId == nil ? "\($0): \(entry.what)" : "\(entry.what), again for bulk \($0.prefix(8))" } ?? entry.what
            table.add([when, entry.actor, from, entry.action, entry.bulkId.map { String($0.prefix(8)) } ?? "", what])
        }
        print(table.render(), terminator: "")
    }

    /// "2026-11-28 10:02", in this terminal's time zone.
    static func shown(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// A wire time, else what `PastMoment` reads (a day, a day and time, a span back from `now`); nil for none.
    static func moment(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return WireTime.date(trimmed) ?? PastMoment.parse(trimmed, now: now, timeZone: timeZone)
    }
}
