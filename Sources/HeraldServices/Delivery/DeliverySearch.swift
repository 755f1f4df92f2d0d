import Foundation
import HeraldCore
import HeraldStore
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deliveries' query, breakdown and export (`/`, the breakdown view, `:export`, `herald deliveries`): a query is read
/// once (`query(_:)`, spans such as `7d` counted from the clock's now) and then asked for its bulks, a page of its
/// recipients, a breakdown, what of it can be retried, or written to a file.
public struct DeliverySearch: Sendable {
    let ledger: LedgerStore
    let settings: SettingsStore
    let clock: any HeraldClock
    let timeZone: TimeZone
    let policy: ResendPolicy

    public init(ledger: LedgerStore, settings: SettingsStore, clock: any HeraldClock, timeZone: TimeZone = .current,
                policy: ResendPolicy = .default) {
        self.ledger = ledger
        self.settings = settings
        self.clock = clock
        self.timeZone = timeZone
        self.policy = policy
    }

    /// A search over the ledger of `database` (the command line's way in, without a workspace).
    public init(database: HeraldDatabase, clock: any HeraldClock = SystemClock(), timeZone: TimeZone = .current) {
        self.init(ledger: LedgerStore(database: database, clock: clock), settings: SettingsStore(database: database),
                  clock: clock, timeZone: timeZone)
    }

    /// Reads `text` as a Deliveries query; the error says what to write instead.
    public func query(_ text: String) throws(DeliveryQueryError) -> DeliveryQuery {
        try DeliveryQuery(text, now: clock.now(), timeZone: timeZone)
    }

    /// How many recipients `query` matches (within `group`), and their bulks, newest first.
    public func matches(_ query: DeliveryQuery, group: DeliveryGroupKey? = nil) async throws -> DeliveryMatches {
        let bulks = try ledger.matchingBulks(query, group: group.map(Self.ledgerGroup)).map {
            DeliveryBulkMatch(bulkId: $0.bulkId, createdAt: $0.createdAt, matched: $0.matched, recipientCount: $0.recipientCount)
        }
        return DeliveryMatches(query: query, total: bulks.reduce(0) { $0 + $1.matched }, bulks: bulks, notes: query.notes)
    }

    /// The recipients `query` matches (within `group`) at positions `range`, newest first.
    public func recipients(_ query: DeliveryQuery, group: DeliveryGroupKey? = nil, range: Range<Int>) async throws -> [DeliveryRecipient] {
        guard !range.isEmpty, range.lowerBound >= 0 else { return [] }
        return try ledger.matches(query, group: group.map(Self.ledgerGroup), limit: range.count, offset: range.lowerBound)
            .map(Self.recipient)
    }

    /// What `query` matches, grouped by `dimension`.
    public func breakdown(_ query: DeliveryQuery, by dimension: DeliveryDimension) async throws -> DeliveryBreakdown {
        let answer = try ledger.breakdown(query, by: Self.ledgerDimension(dimension), policy: policy)
        let total = answer.total
        return DeliveryBreakdown(dimension: dimension, groups: answer.rows.map { row in
            DeliveryBreakdownGroup(key: DeliveryGroupKey(dimension: dimension, value: row.group.key), count: row.count,
                                   share: total == 0 ? 0 : Double(row.count) / Double(total),
                                   firstSeen: row.firstSeen, lastSeen: row.lastSeen, final: row.final,
                                   permanent: row.permanent, retryable: row.retryable)
        }, total: total)
    }

    /// The recipients of `query` (within `group`) a resend would send again, oldest first: the number's latest
    /// invitation failed (not for good), or an email's hand-over failed or was cut short.
    public func retryable(_ query: DeliveryQuery, group: DeliveryGroupKey? = nil) async throws -> [DeliveryRecipient] {
        try ledger.retryable(query, group: group.map(Self.ledgerGroup), policy: policy).map(Self.recipient)
    }

    // MARK: export

    /// Writes every recipient `query` matches to `path` in `format` (see `DeliveryExportWriter` for the columns),
    /// streamed: into a temporary file beside it, renamed over `path` once complete, so a failed export leaves
    /// nothing half-written. The file is readable by its owner only (it holds numbers and names).
    public func export(_ query: DeliveryQuery, format: DeliveryExportFormat, to path: String) async throws -> DeliveryExportSummary {
        let target = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        let folder = target.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
            throw DeliveryExportError(path: path, why: "it is a folder: name a file")
        }
        let temporary = folder.appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).part")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: temporary.path) else {
            throw DeliveryExportError(path: path, why: FileManager.default.fileExists(atPath: folder.path)
                                      ? "cannot write in \(folder.path)" : "no folder \(folder.path)")
        }
        var done = false
        defer {
            if !done { try? FileManager.default.removeItem(at: temporary) }
        }
        let summary: DeliveryExportSummary
        do {
            summary = try write(query, format: format, to: handle)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        guard rename(temporary.path, target.path) == 0 else {
            throw DeliveryExportError(path: path, why: "cannot put the file in place (\(String(cString: strerror(errno))))")
        }
        done = true
        return DeliveryExportSummary(rows: summary.rows, bytes: summary.bytes, path: target.path)
    }

    /// Writes every recipient `query` matches to `handle` (standard output) in `format`, chunk by chunk.
    public func export(_ query: DeliveryQuery, format: DeliveryExportFormat, to handle: FileHandle) async throws -> DeliveryExportSummary {
        try write(query, format: format, to: handle)
    }

    private func write(_ query: DeliveryQuery, format: DeliveryExportFormat, to handle: FileHandle) throws -> DeliveryExportSummary {
        var writer = DeliveryExportWriter(format: format) { chunk in try handle.write(contentsOf: chunk) }
        try writer.begin()
        let rows = try ledger.exportRows(query) { row in try writer.write(row) }
        try writer.finish()
        return DeliveryExportSummary(rows: rows, bytes: writer.bytes, path: nil)
    }

    // MARK: history

    static let keySearchHistory = "deliveries.search_history"

    /// The queries made in Deliveries, oldest first (kept across runs).
    public func searchHistory() async throws -> [String] {
        guard let json = try settings.string(Self.keySearchHistory) else { return [] }
        do { return try JSONDecoder().decode([String].self, from: Data(json.utf8)) } catch {
            Logger(label: "herald.deliveries").warning("the query history cannot be read; starting a new one",
                                                       metadata: ["cause": "\(logCause(error))"])
            return []
        }
    }

    /// Keeps the queries made in Deliveries for the next run.
    public func saveSearchHistory(_ entries: [String]) async throws {
        try settings.set(Self.keySearchHistory, String(decoding: try JSONEncoder().encode(entries), as: UTF8.self))
    }

    // MARK: mapping

    static func ledgerDimension(_ dimension: DeliveryDimension) -> LedgerDimension {
        switch dimension {
        case .reason: return .reason
        case .country: return .country
        case .sender: return .sender
        }
    }

    static func ledgerGroup(_ key: DeliveryGroupKey) -> LedgerGroup {
        LedgerGroup(dimension: ledgerDimension(key.dimension), key: key.value)
    }

    static func recipient(_ match: LedgerMatch) -> DeliveryRecipient {
        let i = match.invitation
        return DeliveryRecipient(id: i.id ?? 0, bulkId: i.bulkId ?? "", number: i.msisdn, name: match.name,
                                 country: match.country, status: i.status, reason: i.error,
                                 permanentFailure: i.permanentFailure, price: i.price, currency: i.currency,
                                 attempts: i.attempts, clicks: i.clicks, sentAt: i.createdAt, updatedAt: i.updatedAt,
                                 sender: match.sender, sentBy: match.sentBy, text: match.text, personId: i.personId,
                                 messageId: i.messageId)
    }
}
