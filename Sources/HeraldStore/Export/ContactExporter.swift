import Foundation
import GRDB
import HeraldCore

/// The formats `herald contacts export` writes.
public enum ExportFormat: String, Sendable, CaseIterable, Codable {
    case vcard, csv
}

/// Streams the whole address book out as vCard 4.0 or CSV, a page of people at a time.
public struct ContactExporter: Sendable {
    public let database: HeraldDatabase

    public init(database: HeraldDatabase) { self.database = database }

    /// Calls `write` with successive pieces of the output; returns how many people were written.
    @discardableResult
    public func export(_ format: ExportFormat, pageSize: Int = 1000, write: (String) throws -> Void) throws -> Int {
        let ids = try database.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM person ORDER BY sort_first, id")
        }
        var csv: CSVWriter?
        if format == .csv {
            let (phones, emails) = try database.read { db in
                (try Int.fetchOne(db, sql: "SELECT MAX(c) FROM (SELECT COUNT(*) c FROM phone GROUP BY person_id)") ?? 1,
                 try Int.fetchOne(db, sql: "SELECT MAX(c) FROM (SELECT COUNT(*) c FROM email GROUP BY person_id)") ?? 1)
            }
            let writer = CSVWriter(phoneColumns: phones, emailColumns: emails)
            csv = writer
            try write(writer.header)
        }
        var start = 0
        while start < ids.count {
            let page = Array(ids[start..<min(start + pageSize, ids.count)])
            start += pageSize
            let people = try database.read { db in try PersonRows.fetch(ids: page, db: db) }
            var chunk = ""
            for p in people { chunk += csv?.row(p) ?? VCardWriter.card(p) }
            try write(chunk)
        }
        return ids.count
    }

    /// Writes the export to a file. A failed close is a failed export: the data may not have reached the disk.
    @discardableResult
    public func export(_ format: ExportFormat, to url: URL) throws -> Int {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        let count: Int
        do { count = try export(format) { try handle.write(contentsOf: Data($0.utf8)) } } catch {
            try? handle.close()  // the export already failed: that failure is the one to report
            throw error
        }
        try handle.close()
        return count
    }
}
