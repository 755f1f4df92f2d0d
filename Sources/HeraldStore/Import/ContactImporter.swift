import Foundation
import GRDB
import HeraldCore
import HeraldLocks
import Logging

/// Imports vCard, CSV and vdir sources into the address book, streaming and in batched
/// transactions. Re-importing merges: a card matches a stored person by UID, else by a shared
/// E.164 number or email. One bad card is reported (file, line, reason) and the rest goes on.
///
/// One import at a time runs on a database, across processes (an advisory lock beside the file):
/// a second one waits and then merges into what the first stored instead of duplicating it.
/// Every batch bumps the contacts generation as it commits, so screens see what an import that
/// was killed half-way had stored.
public struct ContactImporter: Sendable {
    public let database: HeraldDatabase
    public let parser: PhoneNumberParser
    /// People written per transaction.
    public var batchSize: Int
    /// How long an import waits for another import into the same database to finish.
    public var lockTimeout: TimeInterval = 30 * 60
    /// Called once, on the importing thread, when another import into the same database is
    /// running and this one waits for it to finish (e.g. to print "waiting for another import").
    public var onWaitingForOtherImport: (@Sendable () -> Void)?
    private let clock: any HeraldClock
    fileprivate static let log = Logger(label: "herald.import")

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
        // The real cause, never a guessed one, and a failed read is not an empty file.
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw ImportError.unreadable(url.path, error.localizedDescription)
        }
        let text = String(decoding: head, as: UTF8.self)
            .trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        if text.uppercased().hasPrefix("BEGIN:VCARD") { return .vcard }
        if let firstLine = text.split(separator: "\n").first, firstLine.contains(",") || firstLine.contains(";") {
            return .csv
        }
        throw ImportError.cannotDetectFormat(url.path)
    }

    /// The lock file one import at a time holds: `<database>.import-lock`.
    public var lockPath: String { Self.lockPath(forDatabase: database.path) }

    static func lockPath(forDatabase path: String) -> String { path + ".import-lock" }

    /// Takes the import lock of this database, waiting up to `lockTimeout` for another import.
    private func lockImports() throws -> FileLock {
        do {
            return try FileLock.acquire(lockPath, timeout: lockTimeout, onWait: onWaitingForOtherImport)
        } catch {
            switch error {
            case .timedOut(_, let seconds):
                let waited = seconds >= 120 ? "\(Int(seconds / 60)) minutes" : "\(Int(seconds)) s"
                throw ImportError.locked("another import into \(database.path) has been running for over \(waited): "
                                         + "try again when it has finished")
            case .failed:
                throw ImportError.locked(error.description)
            }
        }
    }

    /// Imports `url` in `format` (`.auto` detects it).
    ///
    /// Reading, number parsing and name folding run on a second thread while this one writes,
    /// `batchSize` people per transaction. Waits while another import into the same database runs.
    public func importContacts(from url: URL, format: ImportFormat = .auto) throws -> ImportReport {
        let resolved = format == .auto ? try Self.detectFormat(of: url) : format
        if resolved == .vdir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ImportError.notADirectory(url.path)
            }
        }
        // Held to the end: the match index is built under it, so it sees all an earlier import stored.
        let lock = try lockImports()
        defer { lock.unlock() }
        // Three stages on their own threads: reading, keying (numbers parsed, names folded) and writing.
        // Room for two batches before the writer: reading and keying go on while a batch is written.
        let read = ImportChannel<[ReadItem]>(capacity: 4)
        let channel = ImportChannel<[ImportItem]>(capacity: max(8, 2 * batchSize / ImportProducer.defaultChunkSize))
        let parser = self.parser
        let reader = Thread {
            yieldToImportWriter()
            var producer = ImportProducer(parser: parser, channel: read)
            producer.run(url, format: resolved)
        }
        reader.name = "herald-import-reader"
        let keyer = Thread {
            yieldToImportWriter()
            ImportKeyer(parser: parser, input: read, output: channel).run()
        }
        keyer.name = "herald-import-keyer"
        reader.start()
        keyer.start()
        var report = ImportReport()
        var batch = Batch(importer: self)
        // About one person per 150 bytes of a file (a card of a few lines, a CSV row). Only a hint: a size
        // that cannot be read leaves the tables to grow as they go (the read itself reports the file). Photos
        // make a card thousands of bytes, so the match tables are sized for 250,000 people at most and grow
        // past that (a 200 MB export of 2,000 cards with photos would otherwise reserve some 300 MB).
        if resolved != .vdir, let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int {
            batch.expectedPeople = min(size / 150, 2_000_000)
            batch.matches.reserve(people: min(batch.expectedPeople, 250_000))
        }
        do {
            try withImportTuning {
                try batch.write(report: &report) { batch, report in
                    while let chunk = try channel.receive() {
                        for item in chunk { try batch.take(item, report: &report) }
                    }
                }
            }
        } catch {
            channel.cancel()
            read.cancel()
            throw error
        }
        report.finish()
        return report
    }

    /// Runs `body` with the writing connection tuned for a big import, restoring it afterwards:
    /// - a larger page cache (index pages of a big book stay in memory between batches);
    /// - no checkpoints on the writer between batches while the log stays small: each one waits for the disk
    ///   (two fsyncs). A `BackgroundCheckpointer` copies the log meanwhile on another thread; one checkpoint at the
    ///   end copies the rest and empties the log. On a machine too busy to give that thread its turns, the writer
    ///   copies the log itself once it holds `backstopPages` (SQLite's auto-checkpoint), so the log never grows
    ///   with the whole import.
    /// Pages of log (4 MiB at SQLite's 4 KiB pages) after which the writer checkpoints itself during an import.
    static let backstopPages = 1024

    private func withImportTuning(_ body: () throws -> Void) throws {
        let previous = try database.pool.writeWithoutTransaction { db -> (cache: Int?, checkpoint: Int?) in
            let size = try Int.fetchOne(db, sql: "PRAGMA cache_size")
            let checkpoint = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint")
            try db.execute(sql: "PRAGMA cache_size = -65536")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Self.backstopPages)")
            return (size, checkpoint)
        }
        defer {
            do {
                try database.pool.writeWithoutTransaction { db in
                    // Each restored on its own: a failed one must not leave the connection without checkpoints.
                    var restores = ["PRAGMA wal_autocheckpoint = \(previous.checkpoint ?? 1000)"]
                    if let cache = previous.cache { restores.append("PRAGMA cache_size = \(cache)") }
                    for sql in restores {
                        do { try db.execute(sql: sql) } catch {
                            Self.log.error("after an import: \(sql) failed", metadata: ["cause": "\(error)"])
                        }
                    }
                    // Never waits for a screen's open read or another process's write: without a busy
                    // timeout it copies what no reader still needs, and empties the log only when none does.
                    let timeout = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
                    try db.execute(sql: "PRAGMA busy_timeout = 0")
                    defer {
                        do { try db.execute(sql: "PRAGMA busy_timeout = \(timeout)") } catch {
                            Self.log.error("after an import: the busy timeout was not restored", metadata: ["cause": "\(error)"])
                        }
                    }
                    _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                }
            } catch {
                Self.log.error("after an import: the log was not checkpointed", metadata: ["cause": "\(error)"])
            }
        }
        let checkpointer = BackgroundCheckpointer(path: database.path)
        defer { checkpointer.stop() }
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
        let lock = try lockImports()
        defer { lock.unlock() }
        var report = ImportReport()
        var batch = Batch(importer: self)
        batch.expectedPeople = people.count
        let folding = FoldingCache()
        try batch.write(report: &report) { batch, report in
            for (i, p) in people.enumerated() {
                try batch.take(.person(p, keys: PersonRows.keys(for: p, cache: folding), file: source, line: i + 1, issues: []),
                               report: &report)
            }
        }
        report.finish()
        return report
    }

    /// Collects people and writes them `batchSize` at a time.
    private struct Batch {
        let importer: ContactImporter
        var people: [Incoming] = []
        /// Stored UIDs, numbers and emails, so cards match without a query each. Filled in the
        /// first write transaction (the import lock is held by then).
        let matches = MatchIndex()
        /// Folded names for people merged into stored ones (new people arrive with their keys).
        let folding = FoldingCache()
        /// About how many people the source holds (from its size; 0 when unknown).
        var expectedPeople = 0
        /// Whether the first batch decided yet if the sort and number indexes are built after the rows.
        private var decided = false
        /// Whether they were dropped, to be built when the import ends (`DeferredIndexes`).
        private(set) var indexesDeferred = false
        /// The group cards read (KIND:group), applied when every person is stored.
        var groupCards: [GroupCard] = []

        struct Incoming {
            var person: Person
            var keys: PersonRows.Keys
            var file: String
            var line: Int
        }

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
            case .groupCard(let card):
                groupCards.append(card)
            case .person(let p, let keys, let file, let line, let issues):
                for i in issues { report.add(i) }
                people.append(Incoming(person: p, keys: keys, file: file, line: line))
                if people.count >= importer.batchSize { try flush(report: &report) }
            }
        }

        /// Takes what `feed` gives (`take`), writes the rest, then builds the indexes the import dropped (one
        /// sort each), also when feeding or writing failed: that failure is what the user is told, and when the
        /// building fails too (the same full disk), the next process to open the database builds them.
        mutating func write(report: inout ImportReport, _ feed: (inout Batch, inout ImportReport) throws -> Void) throws {
            do {
                try feed(&self, &report)
                try flush(report: &report)
                if !groupCards.isEmpty {
                    let cards = groupCards
                    try importer.database.write { db in _ = try GroupCards.apply(cards, db: db) }
                }
            } catch {
                do { try buildDeferredIndexes() } catch let building {
                    ContactImporter.log.error("an import that failed could not build the contact indexes again; they are built when the database is next opened",
                                              metadata: ["cause": "\(building)"])
                }
                throw error
            }
            try buildDeferredIndexes()
        }

        private mutating func buildDeferredIndexes() throws {
            guard indexesDeferred else { return }
            try importer.database.write(DeferredIndexes.create)
            indexesDeferred = false
        }

        mutating func flush(report: inout ImportReport) throws {
            guard !people.isEmpty else { return }
            let now = importer.clock.now()
            let incoming = people
            people.removeAll(keepingCapacity: true)
            let matches = self.matches, folding = self.folding
            let decide = !decided, expected = expectedPeople
            let counts = try importer.database.write { db -> (Int, Int, Int, [ImportIssue], Bool, [Int64]) in
                var deferring = false
                if decide, expected > 0 {
                    let stored = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") ?? 0
                    if DeferredIndexes.worthDeferring(incoming: expected, stored: stored) {
                        // In the batch's own transaction: the indexes go only with rows that are stored.
                        try DeferredIndexes.drop(db)
                        deferring = true
                    }
                }
                try matches.refresh(db)
                var imported = 0, updated = 0, skipped = 0
                var issues: [ImportIssue] = []
                var mergedInto: [Int64] = []
                for item in incoming {
                    let (outcome, full) = try Merger.store(item.person, keys: item.keys, db: db, now: now,
                                                           matches: matches, folding: folding)
                    switch outcome {
                    case .inserted: imported += 1
                    case .updated(let id):
                        updated += 1
                        mergedInto.append(id)
                    case .unchanged(let id):
                        skipped += 1
                        mergedInto.append(id)
                    }
                    if let full { issues.append(ImportIssue(file: item.file, line: item.line, message: full)) }
                }
                // In the same transaction as the people: a screen (or another import's match index)
                // sees every committed batch, also of an import killed before its end.
                if imported + updated > 0 { try PersonRows.bumpGeneration(db) }
                try matches.wrote(db)
                return (imported, updated, skipped, issues, deferring, mergedInto)
            }
            decided = true
            if counts.4 { indexesDeferred = true }
            report.imported += counts.0
            report.updated += counts.1
            report.skipped += counts.2
            report.mergedInto += counts.5
            report.numbersNeedingRegion += incoming.reduce(0) { total, item in
                total + item.person.phones.filter { $0.number.invalidReason == PhoneNumberParser.noRegionHelp }.count
            }
            for issue in counts.3 { report.add(issue) }
        }
    }
}

/// Finds the stored person an incoming one is, and merges them.
enum Merger {
    /// A new person, or the stored one (by id) a card was merged into.
    enum Outcome { case inserted, updated(Int64), unchanged(Int64) }

    /// Stores `p` (new, or merged into the stored person it is); the second value says what a
    /// merge left out because the stored person had all the numbers or emails one may have.
    static func store(_ p: Person, keys: PersonRows.Keys, db: Database, now: Date, matches: MatchIndex,
                      folding: FoldingCache) throws -> (Outcome, String?) {
        guard let id = matches.match(p, keys: keys), let existing = try PersonRows.fetch(ids: [id], db: db).first else {
            let id = try PersonRows.insert(p, keys: keys, db: db, now: now)
            matches.record(p, id: id, keys: keys)
            return (.inserted, nil)
        }
        var left = (phones: 0, emails: 0)
        let merged = merge(existing, p, left: &left)
        var full: String?
        if left.phones + left.emails > 0 {
            var cut: [String] = []
            if left.phones > 0 { cut.append(counted(left.phones, "phone number")) }
            if left.emails > 0 { cut.append(counted(left.emails, "email")) }
            full = "merged into \(VCardReader.preview(existing.displayName)), who has the most numbers and "
                + "emails one person may have (\(FieldLimits.phonesPerPerson) each): \(cut.joined(separator: " and ")) "
                + "of this card not added"
        }
        if same(merged, existing) { return (.unchanged(id), full) }
        let mergedKeys = try PersonRows.update(merged, id: id, db: db, now: now, folding: folding)
        matches.record(merged, id: id, keys: mergedKeys)
        return (.updated(id), full)
    }

    /// The stored person updated with what the incoming card says; numbers and emails are united.
    static func merge(_ old: Person, _ new: Person) -> Person {
        var left = (phones: 0, emails: 0)
        return merge(old, new, left: &left)
    }

    /// `merge`, adding numbers and emails only up to the limits of one person; `left` counts the
    /// ones left out. Linear in the numbers and emails of both.
    static func merge(_ old: Person, _ new: Person, left: inout (phones: Int, emails: Int)) -> Person {
        var m = old
        if new.hasName {
            m.firstName = new.firstName
            m.lastName = new.lastName
            m.formattedName = new.formattedName
        }
        if let org = new.organization { m.organization = org }
        if let note = new.note { m.note = note }
        if m.uid == nil { m.uid = new.uid }
        if !new.groups.isEmpty { m.groups = PersonGroups.unique(old.groups + new.groups) }
        // A field the card brings says its value now; a new one joins up to a person's limit (the card's reader
        // kept no more than that many, so only a merge of two full people leaves any out).
        for (name, value) in new.customFields where m.customFields[name] != nil
            || m.customFields.count < PersonalFields.maxFieldsPerPerson {
            m.customFields[name] = value
        }
        m.hasPhoto = old.hasPhoto || new.hasPhoto
        if let r = new.revision, (old.revision.map { r > $0 } ?? true) { m.revision = r }
        func key(_ ph: LabeledPhone) -> String { ph.number.e164 ?? ph.number.raw.filter(\.isNumber) }
        // Where each number is in the merged list (first occurrence).
        var phoneAt: [String: Int] = [:]
        // Where each number written the same way is: read again with another region, it is the same number.
        var writtenAt: [String: Int] = [:]
        for (i, ph) in m.phones.enumerated() {
            if phoneAt[key(ph)] == nil { phoneAt[key(ph)] = i }
            if let w = PersonRows.writtenDigits(ph.number.raw), writtenAt[w] == nil { writtenAt[w] = i }
        }
        for ph in new.phones {
            let k = key(ph)
            if let i = phoneAt[k] {
                if m.phones[i].label == nil { m.phones[i].label = ph.label }
            } else if let w = PersonRows.writtenDigits(ph.number.raw), let i = writtenAt[w] {
                // Re-parsed in place when the new reading is valid or the old one was not: a region given now
                // mends a number read without one, and an import that cannot read it never spoils it.
                if ph.number.e164 != nil || m.phones[i].number.e164 == nil {
                    let label = m.phones[i].label
                    m.phones[i] = ph
                    if m.phones[i].label == nil { m.phones[i].label = label }
                    phoneAt[k] = i
                }
            } else if m.phones.count < FieldLimits.phonesPerPerson {
                phoneAt[k] = m.phones.count
                m.phones.append(ph)
            } else {
                left.phones += 1
            }
        }
        var emailKeys = Set(old.emails.map { PersonRows.normalisedEmail($0.address) })
        for e in new.emails where !emailKeys.contains(PersonRows.normalisedEmail(e.address)) {
            if m.emails.count < FieldLimits.emailsPerPerson {
                emailKeys.insert(PersonRows.normalisedEmail(e.address))
                m.emails.append(e)
            } else {
                left.emails += 1
            }
        }
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
