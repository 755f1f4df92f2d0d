import Foundation
import GRDB
import HeraldCore

/// One `[[books]]` entry: a named address book contacts come from and are written back to.
public struct AddressBook: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A folder of `.vcf` files, one per card (khard, vdirsyncer).
        case vdir
        /// A CardDAV address book collection (Nextcloud, iCloud, Fastmail, Radicale).
        case carddav
    }

    public var name: String
    public var kind: Kind
    /// The folder of a vdir book, the collection URL of a CardDAV one.
    public var location: String

    public init(name: String, kind: Kind, location: String) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}

/// What a sync of one book did.
public struct BookSyncReport: Sendable, Hashable {
    public var book: String
    public var added = 0
    public var updated = 0
    public var removed = 0
    public var unchanged = 0
    /// Changes made here that the server took (CardDAV).
    public var pushed = 0
    /// Cards changed on both sides (CardDAV): the server's version kept, Herald's saved as a conflict to settle.
    public var conflicts = 0
    /// Cards that could not be read (file, line, why): the person stays as last read, and the card is read again
    /// at the next sync.
    public var issues: [ImportIssue] = []

    public init(book: String) { self.book = book }
}

/// The address books of a store: which there are (`[[books]]`, registered at start), how many cards each holds, and
/// syncing a vdir book with its folder (cards added, changed or removed by khard, vdirsyncer or by hand).
public struct AddressBooks: Sendable {
    public let database: HeraldDatabase
    let parser: PhoneNumberParser
    let clock: any HeraldClock
    /// Cards read and stored per transaction.
    var batchSize = 1_000

    public init(database: HeraldDatabase, parser: PhoneNumberParser, clock: any HeraldClock = SystemClock()) {
        self.database = database
        self.parser = parser
        self.clock = clock
    }

    /// Makes `books` the store's books: new ones added, moved ones updated. A book no longer configured is let go:
    /// its people stay, as contacts of no book, and its folder is not touched.
    public func register(_ books: [AddressBook]) throws {
        try database.write { db in
            for book in books {
                try db.execute(sql: """
                    INSERT INTO book (name, kind, location) VALUES (?, ?, ?)
                    ON CONFLICT(name) DO UPDATE SET kind = excluded.kind, location = excluded.location, configured = 1
                    """, arguments: [book.name, book.kind.rawValue, book.location])
            }
            // A book left out is kept (a config edited by mistake, another config file): its people stay linked to their
            // cards, with their unsynced changes and deletes, and it syncs again when it comes back, without duplicates.
            let names = books.map(\.name)
            let gone = try String.fetchAll(db, sql: "SELECT name FROM book WHERE configured = 1").filter { !names.contains($0) }
            for name in gone { try db.execute(sql: "UPDATE book SET configured = 0 WHERE name = ?", arguments: [name]) }
            if !gone.isEmpty { try PersonRows.bumpGeneration(db) }
        }
    }

    /// The books with how many people each holds, by name.
    public func list() throws -> [(book: AddressBook, people: Int)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.name, b.kind, b.location, (SELECT COUNT(*) FROM book_card c WHERE c.book = b.name)
                FROM book b WHERE b.configured = 1 ORDER BY b.name
                """).map { row in
                (AddressBook(name: row[0], kind: AddressBook.Kind(rawValue: row[1]) ?? .vdir, location: row[2]), row[3])
            }
        }
    }

    /// The card of a person, nil for a contact of no book.
    public func card(personId: Int64) throws -> BookCard? {
        try database.read { db in try BookCards.card(personId: personId, db: db)?.card }
    }

    /// Whether a file of a vdir book is a card: `*.vcf`, not hidden (Herald's temporary files are hidden).
    public static func isCardFile(_ name: String) -> Bool { VdirFolder.isCardName(name) }

    /// Reads the folder of book `name` into the store: new card files become people, changed ones update theirs
    /// (a person's chosen SMS number kept while it still has it), removed ones remove theirs. A card that cannot be
    /// read is reported and its person left as it was. A folder that is not there changes nothing. With `only`, just
    /// those files are looked at (the ones a folder watch saw change), not every file of the folder.
    public func sync(_ name: String, only names: Set<String>? = nil) throws -> BookSyncReport {
        let book = try database.read { db in try BookCards.book(named: name, db: db) }
        guard book.kind == .vdir else { throw BookError.notAFolder(book: book.name) }
        let folder = VdirFolder(path: book.location)
        guard folder.exists else { throw BookError.folderMissing(book: book.name, path: book.location) }
        let files: [String: String]
        var known: [String: (id: Int64, etag: String)] = [:]
        func knownRows(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws {
            for row in try Row.fetchAll(db, sql: "SELECT href, person_id, etag FROM book_card WHERE book = ?" + sql,
                                        arguments: [book.name] + arguments) {
                known[row[0]] = (row[1], row[2])
            }
        }
        if let names {
            let cards = names.filter(Self.isCardFile)
            files = cards.reduce(into: [:]) { found, href in if let etag = folder.etag(href) { found[href] = etag } }
            let hrefs = Array(cards)
            try database.read { db in
                for start in stride(from: 0, to: hrefs.count, by: 500) {
                    let chunk = hrefs[start..<min(hrefs.count, start + 500)]
                    try knownRows(db, " AND href IN (\(PersonRows.marks(chunk.count)))", StatementArguments(Array(chunk)))
                }
            }
        } else {
            do { files = try folder.cards() } catch { throw BookError.unreadable(book.location, error.localizedDescription) }
            try database.read { db in try knownRows(db, "", []) }
        }
        var report = BookSyncReport(book: book.name)
        let changed = files.filter { known[$0.key]?.etag != $0.value }.keys.sorted()
        report.unchanged = files.count - changed.count
        let phones = PhoneParseCache(parser: parser)
        var groupCards: [GroupCard] = []
        var start = 0
        while start < changed.count {
            let slice = changed[start..<min(start + batchSize, changed.count)]
            start += slice.count
            var read: [(href: String, etag: String, person: Person)] = []
            for href in slice {
                let file = folder.file(href)
                do {
                    let bytes = try folder.read(href)
                    guard let etag = folder.etag(href) else { continue }          // gone since listed: the next sync sees it
                    let cards = try VCardFile.people(bytes, file: file, phones: phones)
                    report.issues += cards.issues
                    groupCards += cards.groups
                    guard let person = cards.people.first else { continue }
                    if cards.people.count > 1 {
                        report.issues.append(ImportIssue(file: file, line: 0, message: "holds \(cards.people.count) cards: the first is used"))
                    }
                    read.append((href, etag, person))
                } catch {
                    report.issues.append(ImportIssue(file: file, line: 0, message: "\(error)"))
                }
            }
            try store(read.map { RemoteCard(href: $0.href, etag: $0.etag, person: $0.person, raw: nil) }, book: book.name,
                      known: known.mapValues(\.id), report: &report)
        }
        // Group cards once their members are stored (a group card is no person: it is read again at each sync).
        if !groupCards.isEmpty { try database.write { db in _ = try GroupCards.apply(groupCards, db: db) } }
        let gone = known.filter { files[$0.key] == nil }.map(\.value.id)
        if !gone.isEmpty {
            try database.write { db in
                for id in gone { try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [id]) }
                try PersonRows.bumpGeneration(db)
            }
            report.removed = gone.count
        }
        return report
    }

    /// Stores cards read in one transaction: over their person, else over a contact of no book with the same UID
    /// (imported before the book was configured), else as a new person.
    func store(_ cards: [RemoteCard], book: String, known: [String: Int64], report: inout BookSyncReport) throws {
        guard !cards.isEmpty else { return }
        let now = clock.now()
        let counts = try database.write { db -> (added: Int, updated: Int) in
            var unbound: [String: Int64]?
            var added = 0, updated = 0
            for card in cards {
                var person = card.person
                var id = known[card.href]
                if id == nil, let uid = person.uid {
                    if unbound == nil {
                        unbound = try Row.fetchAll(db, sql: """
                            SELECT uid, id FROM person WHERE uid IS NOT NULL AND id NOT IN (SELECT person_id FROM book_card)
                            """).reduce(into: [String: Int64]()) { $0[$1[0]] = $1[1] }
                    }
                    id = unbound?[uid]
                    unbound?[uid] = nil
                }
                if let id, let stored = try PersonRows.fetch(ids: [id], db: db).first {
                    if let chosen = stored.smsNumber, person.distinctNumbers.contains(chosen) { person.smsNumber = chosen }
                    _ = try PersonRows.update(person, id: id, db: db, now: now)
                    try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag, raw) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [id, book, card.href, card.etag, card.raw])
                    updated += 1
                } else {
                    let newId = try PersonRows.insert(person, db: db, now: now)
                    try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag, raw) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [newId, book, card.href, card.etag, card.raw])
                    added += 1
                }
            }
            try PersonRows.bumpGeneration(db)
            return (added, updated)
        }
        report.added += counts.added
        report.updated += counts.updated
    }
}

/// A card as read from its book: where, which version, the person in it, and (CardDAV) its text.
struct RemoteCard {
    var href: String
    var etag: String
    var person: Person
    var raw: Data?
}

/// The people of one card file's bytes, their numbers read, with the problems met (by line of the file).
enum VCardFile {
    static func people(_ bytes: [UInt8], file: String,
                       phones: PhoneParseCache) throws -> (people: [Person], issues: [ImportIssue], groups: [GroupCard]) {
        var reader = VCardReader(lines: LineReader(ByteStream(bytes: bytes)), parser: phones)
        var people: [Person] = [], issues: [ImportIssue] = [], groups: [GroupCard] = []
        while let record = try reader.next() {
            switch record {
            case .person(let person, _, let problems):
                people.append(person)
                issues += problems.map { ImportIssue(file: file, line: $0.line, message: $0.message) }
            case .failure(let line, let message):
                issues.append(ImportIssue(file: file, line: line, message: message))
            case .group(let card, _):
                groups.append(card)
            }
        }
        return (people, issues, groups)
    }
}
