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

    public init(database: HeraldDatabase, parser: PhoneNumberParser, batchSize: Int = 5000,
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
    ///
    /// Reading, number parsing and name folding run on a second thread while this one writes,
    /// `batchSize` people per transaction.
    public func importContacts(from url: URL, format: ImportFormat = .auto) throws -> ImportReport {
        let resolved = format == .auto ? try Self.detectFormat(of: url) : format
        if resolved == .vdir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ImportError.notADirectory(url.path)
            }
        }
        let channel = ImportChannel()
        let parser = self.parser
        let reader = Thread {
            var producer = ImportProducer(parser: parser, channel: channel)
            producer.run(url, format: resolved)
        }
        reader.name = "herald-import-reader"
        reader.start()
        var report = ImportReport()
        var batch = Batch(importer: self)
        do {
            try withImportTuning {
                while let chunk = try channel.receive() {
                    for item in chunk { try batch.take(item, report: &report) }
                }
                try batch.flush(report: &report)
            }
        } catch {
            channel.cancel()
            try? batch.announce()
            throw error
        }
        try batch.announce()
        report.finish()
        return report
    }

    /// Runs `body` with a larger page cache on the writing connection (index pages of a big
    /// book stay in memory between batches), restoring the previous size afterwards.
    private func withImportTuning(_ body: () throws -> Void) throws {
        let previous = try database.pool.writeWithoutTransaction { db -> Int? in
            let size = try Int.fetchOne(db, sql: "PRAGMA cache_size")
            try db.execute(sql: "PRAGMA cache_size = -65536")
            return size
        }
        defer {
            if let previous {
                try? database.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = \(previous)") }
            }
        }
        try body()
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
        let folding = FoldingCache()
        for p in people {
            try batch.take(.person(p, keys: PersonRows.keys(for: p, cache: folding), file: source, issues: []), report: &report)
        }
        try batch.flush(report: &report)
        try batch.announce()
        report.finish()
        return report
    }

    /// Collects people and writes them `batchSize` at a time.
    private struct Batch {
        let importer: ContactImporter
        var people: [(Person, PersonRows.Keys)] = []
        /// Stored UIDs, numbers and emails, so cards match without a query each.
        let matches = MatchIndex()
        /// Folded names for people merged into stored ones (new people arrive with their keys).
        let folding = FoldingCache()
        /// Whether a batch was written since the contacts generation was last bumped.
        var unannounced = false

        init(importer: ContactImporter) { self.importer = importer }

        mutating func take(_ item: ImportItem, report: inout ImportReport) throws {
            switch item {
            case .skipped(let issue):
                report.skipped += 1
                report.add(issue)
            case .issue(let issue):
                report.add(issue)
            case .bytesRead(let n):
                report.bytesRead += n
            case .person(let p, let keys, _, let issues):
                for i in issues { report.add(i) }
                people.append((p, keys))
                if people.count >= importer.batchSize { try flush(report: &report) }
            }
        }

        mutating func flush(report: inout ImportReport) throws {
            guard !people.isEmpty else { return }
            let now = importer.clock.now()
            let incoming = people
            people.removeAll(keepingCapacity: true)
            let matches = self.matches, folding = self.folding
            let counts = try importer.database.pool.write { db -> (Int, Int, Int) in
                try matches.refresh(db)
                var imported = 0, updated = 0, skipped = 0
                for (p, keys) in incoming {
                    switch try Merger.store(p, keys: keys, db: db, now: now, matches: matches, folding: folding) {
                    case .inserted: imported += 1
                    case .updated: updated += 1
                    case .unchanged: skipped += 1
                    }
                }
                try matches.wrote(db)
                return (imported, updated, skipped)
            }
            unannounced = true
            report.imported += counts.0
            report.updated += counts.1
            report.skipped += counts.2
        }

        /// Marks the contacts as changed, once per import rather than per batch: search indexes
        /// (this process's and others') rebuild once, not every few thousand people.
        mutating func announce() throws {
            guard unannounced else { return }
            try importer.database.pool.write { db in try PersonRows.bumpGeneration(db) }
            unannounced = false
        }
    }
}

/// Finds the stored person an incoming one is, and merges them.
enum Merger {
    enum Outcome { case inserted, updated, unchanged }

    static func store(_ p: Person, keys: PersonRows.Keys, db: Database, now: Date, matches: MatchIndex,
                      folding: FoldingCache) throws -> Outcome {
        guard let id = matches.match(p), let existing = try PersonRows.fetch(ids: [id], db: db).first else {
            let id = try PersonRows.insert(p, keys: keys, db: db, now: now)
            matches.record(p, id: id)
            return .inserted
        }
        let merged = merge(existing, p)
        if same(merged, existing) { return .unchanged }
        try PersonRows.update(merged, id: id, db: db, now: now, folding: folding)
        matches.record(merged, id: id)
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
