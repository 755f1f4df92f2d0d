import Foundation
import GRDB
import HeraldCore

/// Imports vCard, CSV and vdir sources into the address book, streaming and in batched
/// transactions. Re-importing merges: a card matches a stored person by UID, else by a shared
/// E.164 number or email. One bad card is reported (file, line, reason) and the rest goes on.
public struct ContactImporter: Sendable {
    public let database: HeraldDatabase
    public let parser: PhoneNumberParser
    /// People written per transaction.
    public var batchSize: Int
    private let clock: any HeraldClock

    public init(database: HeraldDatabase, parser: PhoneNumberParser, batchSize: Int = 1000,
                clock: any HeraldClock = SystemClock()) {
        self.database = database
        self.parser = parser
        self.batchSize = batchSize
        self.clock = clock
    }

    /// Which format `path` holds: a folder is vdir, else the extension, else the first bytes.
    public static func detectFormat(of url: URL) throws -> ImportFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError.notFound(url.path)
        }
        if isDirectory.boolValue { return .vdir }
        switch url.pathExtension.lowercased() {
        case "vcf", "vcard": return .vcard
        case "csv": return .csv
        default: break
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw ImportError.unreadable(url.path, "permission denied") }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        let text = String(decoding: head, as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        if text.uppercased().hasPrefix("BEGIN:VCARD") { return .vcard }
        if let firstLine = text.split(separator: "\n").first, firstLine.contains(",") || firstLine.contains(";") {
            return .csv
        }
        throw ImportError.cannotDetectFormat(url.path)
    }

    /// Imports `url` in `format` (`.auto` detects it).
    public func importContacts(from url: URL, format: ImportFormat = .auto) throws -> ImportReport {
        let resolved = format == .auto ? try Self.detectFormat(of: url) : format
        var report = ImportReport()
        var batch = Batch(importer: self)
        switch resolved {
        case .vdir:
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ImportError.notADirectory(url.path)
            }
            for file in Self.vcfFiles(in: url) {
                try readVCards(file, name: file.path, report: &report, batch: &batch)
            }
        case .vcard, .auto:
            try readVCards(url, name: url.path, report: &report, batch: &batch)
        case .csv:
            let stream = try Self.open(url)
            var reader = CSVContactReader(records: CSVRecordReader(stream), parser: parser)
            while let record = try reader.next() {
                try batch.take(record, file: url.path, report: &report)
            }
            report.bytesRead += reader.bytesRead
        }
        try batch.flush(report: &report)
        report.finish()
        return report
    }

    private func readVCards(_ url: URL, name: String, report: inout ImportReport, batch: inout Batch) throws {
        let stream: ByteStream
        do { stream = try Self.open(url) } catch {
            report.add(ImportIssue(file: name, line: 0, message: "cannot read this file: \(error.localizedDescription)"))
            return
        }
        var reader = VCardReader(lines: LineReader(stream), parser: parser)
        while let record = try reader.next() {
            try batch.take(record, file: name, report: &report)
        }
        report.bytesRead += reader.bytesRead
    }

    private static func open(_ url: URL) throws -> ByteStream {
        guard FileManager.default.fileExists(atPath: url.path) else { throw ImportError.notFound(url.path) }
        do { return try ByteStream(fileAt: url) } catch {
            throw ImportError.unreadable(url.path, error.localizedDescription)
        }
    }

    /// Every .vcf file under `dir`, in path order.
    static func vcfFiles(in dir: URL) -> [URL] {
        guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in e where ["vcf", "vcard"].contains(url.pathExtension.lowercased()) {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Imports people already in memory (from another source), with the same merging.
    public func importPeople(_ people: [Person], source: String = "memory") throws -> ImportReport {
        var report = ImportReport()
        var batch = Batch(importer: self)
        for (i, p) in people.enumerated() {
            try batch.take(.person(p, line: i + 1, issues: []), file: source, report: &report)
        }
        try batch.flush(report: &report)
        report.finish()
        return report
    }

    /// Collects people and writes them `batchSize` at a time.
    private struct Batch {
        let importer: ContactImporter
        var people: [Person] = []

        init(importer: ContactImporter) { self.importer = importer }

        mutating func take(_ record: SourceRecord, file: String, report: inout ImportReport) throws {
            switch record {
            case .failure(let line, let message):
                report.skipped += 1
                report.add(ImportIssue(file: file, line: line, message: message))
            case .person(let p, _, let issues):
                for i in issues { report.add(ImportIssue(file: file, line: i.line, message: i.message)) }
                people.append(p)
                if people.count >= importer.batchSize { try flush(report: &report) }
            }
        }

        mutating func flush(report: inout ImportReport) throws {
            guard !people.isEmpty else { return }
            let now = importer.clock.now()
            let incoming = people
            people.removeAll(keepingCapacity: true)
            let counts = try importer.database.pool.write { db -> (Int, Int, Int) in
                var imported = 0, updated = 0, skipped = 0
                for p in incoming {
                    switch try Merger.store(p, db: db, now: now) {
                    case .inserted: imported += 1
                    case .updated: updated += 1
                    case .unchanged: skipped += 1
                    }
                }
                try PersonRows.bumpGeneration(db)
                return (imported, updated, skipped)
            }
            report.imported += counts.0
            report.updated += counts.1
            report.skipped += counts.2
        }
    }
}

/// Finds the stored person an incoming one is, and merges them.
enum Merger {
    enum Outcome { case inserted, updated, unchanged }

    static func match(_ p: Person, db: Database) throws -> Int64? {
        if let uid = p.uid, let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM person WHERE uid = ? LIMIT 1"),
                                                        arguments: [uid]) {
            return id
        }
        func acceptable(_ id: Int64) throws -> Bool {
            // Two cards with different UIDs are different people even when they share a number.
            guard let uid = p.uid else { return true }
            let other = try String.fetchOne(db.cachedStatement(sql: "SELECT uid FROM person WHERE id = ?"), arguments: [id])
            return other == nil || other == uid
        }
        let byPhone = try db.cachedStatement(sql: "SELECT person_id FROM phone WHERE e164 = ? LIMIT 1")
        for e164 in p.distinctNumbers {
            if let id = try Int64.fetchOne(byPhone, arguments: [e164]), try acceptable(id) { return id }
        }
        let byEmail = try db.cachedStatement(sql: "SELECT person_id FROM email WHERE address_norm = ? LIMIT 1")
        for e in p.emails {
            if let id = try Int64.fetchOne(byEmail, arguments: [PersonRows.normalisedEmail(e.address)]), try acceptable(id) {
                return id
            }
        }
        return nil
    }

    static func store(_ p: Person, db: Database, now: Date) throws -> Outcome {
        guard let id = try match(p, db: db), let existing = try PersonRows.fetch(ids: [id], db: db).first else {
            try PersonRows.insert(p, db: db, now: now)
            return .inserted
        }
        let merged = merge(existing, p)
        if same(merged, existing) { return .unchanged }
        try PersonRows.update(merged, id: id, db: db, now: now)
        return .updated
    }

    /// The stored person updated with what the incoming card says; numbers and emails are united.
    static func merge(_ old: Person, _ new: Person) -> Person {
        var m = old
        if new.hasName {
            m.firstName = new.firstName
            m.lastName = new.lastName
            m.formattedName = new.formattedName
        }
        if let org = new.organization { m.organization = org }
        if m.uid == nil { m.uid = new.uid }
        m.hasPhoto = old.hasPhoto || new.hasPhoto
        if let r = new.revision, (old.revision.map { r > $0 } ?? true) { m.revision = r }
        func key(_ ph: LabeledPhone) -> String { ph.number.e164 ?? ph.number.raw.filter(\.isNumber) }
        var phoneKeys = Set(old.phones.map(key))
        for ph in new.phones where phoneKeys.insert(key(ph)).inserted { m.phones.append(ph) }
        for ph in new.phones {
            if let i = m.phones.firstIndex(where: { key($0) == key(ph) }), m.phones[i].label == nil { m.phones[i].label = ph.label }
        }
        var emailKeys = Set(old.emails.map { PersonRows.normalisedEmail($0.address) })
        for e in new.emails where emailKeys.insert(PersonRows.normalisedEmail(e.address)).inserted { m.emails.append(e) }
        return m
    }

    static func same(_ a: Person, _ b: Person) -> Bool {
        var x = a, y = b
        x.createdAt = nil; x.updatedAt = nil; y.createdAt = nil; y.updatedAt = nil
        x.revision = x.revision.map { Date(epochMilliseconds: $0.epochMilliseconds) }
        y.revision = y.revision.map { Date(epochMilliseconds: $0.epochMilliseconds) }
        return x == y
    }
}
