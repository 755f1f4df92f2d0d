import Foundation
import HeraldAPI
import HeraldCore

/// Reports the carrier gives on its own: pushed to the server's report webhook, or queued for collection.
extension PlatformEngine {
    /// Where a carrier pushes its delivery reports; `{token}` is this deployment's secret.
    public static let carrierReportsPath: PathTemplate = "/1/carriers/infobip/reports/{token}"
    static let reportTokenKey = "carrierReportToken"
    /// Most collections from the carrier's queue in one pass (each batch is stored before the next is asked for).
    static let queuedBatchesPerPass = 50

    /// The secret of the report webhook's address: random, made once per deployment and kept in the database, so every
    /// replica answers the same address.
    public func carrierReportToken() async throws -> String {
        if let reportToken { return reportToken }
        let made = Identifiers.hex(bytes: 24)
        let token = try await store.write { db -> String in
            try db.applications.metaOnce(Self.reportTokenKey, made)
        }
        reportToken = token
        return token
    }

    /// The report webhook's address under `base` (the server's public URL): the path with this deployment's token.
    public func carrierReportsURL(under base: URL) async throws -> URL {
        let path = try Self.carrierReportsPath.path(["token": try await carrierReportToken()])
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        guard let url = URL(string: root + path) else { throw EngineError.invalidArgument("\(base) cannot carry the report webhook's path") }
        return url
    }

    /// Whether `token` is this deployment's report token, compared in constant time.
    public func acceptsCarrierReportToken(_ token: String) async throws -> Bool {
        let expected = Array(try await carrierReportToken().utf8)
        let given = Array(token.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Stores the reports of a webhook call. Answers how many statuses changed; a report that came before, or whose
    /// message is final already, changes nothing.
    public func storePushedReports(_ body: Data) async throws -> Int {
        let reports = try carrier.pushedReports(body, at: now)
        return try await storeCarrierReports(reports)
    }

    /// Collects the reports the carrier queued, storing each batch before asking for the next.
    func collectQueuedReports() async throws -> Int {
        var changed = 0
        for _ in 0..<Self.queuedBatchesPerPass {
            let batch = try await carrier.queuedReports(at: now)
            changed += try await storeCarrierReports(batch.reports)
            if !batch.more { break }
        }
        return changed
    }

    /// Stores reports that name only their message (and maybe bulk): each goes to the application that sent it.
    /// Reports of messages this deployment does not know are dropped (logged).
    func storeCarrierReports(_ reports: [CarrierReport]) async throws -> Int {
        guard !reports.isEmpty else { return 0 }
        let ids = reports.map(\.messageId)
        let owners = try await store.read { db in try db.bulks.owners(messageIds: ids) }
        var byApplication: [String: [CarrierReport]] = [:]
        var unknown = 0
        for report in reports {
            let candidates = owners[report.messageId] ?? []
            let owner = candidates.count == 1 ? candidates.first : candidates.first { $0.bulk == report.bulkId }
            guard let owner else { unknown += 1; continue }
            byApplication[owner.app, default: []].append(report)
        }
        if unknown > 0 {
            log.notice("carrier reports for messages this deployment did not send were dropped", metadata: ["count": "\(unknown)"])
        }
        var changed = 0
        for (app, group) in byApplication.sorted(by: { $0.key < $1.key }) {
            changed += try await storeReports(group, applicationKey: app, from: .carrier)
        }
        return changed
    }
}
