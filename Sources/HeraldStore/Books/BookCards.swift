import Foundation
import GRDB
import HeraldCore
import Logging

/// A person's link to the book it came from: which book, which file, and how the file was when last read or written.
public struct BookCard: Sendable, Hashable {
    public let personId: Int64
    public let book: String
    public let href: String
    public let etag: String
    /// A CardDAV card: the server's text with Herald's changes in, and whether those are still to be sent.
    public var raw: Data?
    public var dirty: Dirty = .clean

    public enum Dirty: Int, Sendable, Hashable, DatabaseValueConvertible {
        case clean = 0, changed = 1, new = 2
    }
}

/// What an edit does to the cards: called inside the edit's transaction, after the person is stored, so a card that
/// cannot be written rolls the edit back (nothing changes on either side). A vdir card's file is written at once; a
/// CardDAV card keeps the change (and a delete its tombstone) for the next sync to send.
enum BookCards {
    /// How long the bytes of a deleted card are kept for an undo.
    static let trashKept: TimeInterval = 24 * 3600

    static func card(personId: Int64, db: Database) throws -> (card: BookCard, book: AddressBook)? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT c.person_id, c.book, c.href, c.etag, b.kind, b.location, c.raw, c.dirty FROM book_card c
            JOIN book b ON b.name = c.book WHERE c.person_id = ?
            """, arguments: [personId]) else { return nil }
        let book = AddressBook(name: row[1], kind: AddressBook.Kind(rawValue: row[4]) ?? .vdir, location: row[5])
        return (BookCard(personId: row[0], book: row[1], href: row[2], etag: row[3], raw: row[6], dirty: row[7]), book)
    }

    static func book(named name: String, db: Database) throws -> AddressBook {
        guard let row = try Row.fetchOne(db, sql: "SELECT name, kind, location, configured FROM book WHERE name = ?", arguments: [name]) else {
            throw BookError.unknownBook(name, known: try String.fetchAll(db, sql: "SELECT name FROM book WHERE configured = 1 ORDER BY name"))
        }
        guard row[3] as Bool else {
            throw BookError.leftOut(name, people: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_card WHERE book = ?", arguments: [name]) ?? 0)
        }
        return AddressBook(name: row[0], kind: AddressBook.Kind(rawValue: row[1]) ?? .vdir, location: row[2])
    }

    /// The file of `card`, checked unchanged since it was read: another program's edit is never overwritten.
    private static func checkedFolder(_ card: BookCard, _ book: AddressBook) throws -> VdirFolder {
        let folder = VdirFolder(path: book.location)
        guard let now = folder.etag(card.href) else { throw BookError.cardMissing(book: book.name, file: folder.file(card.href)) }
        guard now == card.etag else { throw BookError.changedOnDisk(book: book.name, file: folder.file(card.href)) }
        return folder
    }

    /// After `person` (stored as `id`) changed: its card file, if it has one, says the same (without the X- lines of
    /// the custom fields in `removedFields`).
    static func written(_ stored: Person, id: Int64, db: Database, now: Date, removedFields: Set<String> = []) throws {
        guard let (card, book) = try card(personId: id, db: db) else { return }
        // The card says the person's own groups; those a group card (KIND:group) gives stay that card's.
        var person = stored
        person.groups = try PersonRows.ownGroups(id: id, db: db)
        if book.kind == .carddav {
            let original = card.raw.map { String(decoding: $0, as: UTF8.self) }
            let text = original.map { VCardPatch.apply(person, to: $0, now: now, removedFields: removedFields) }
                ?? VCardPatch.newCard(person, uid: person.uid ?? UUID().uuidString.lowercased(), now: now)
            try db.execute(sql: "UPDATE book_card SET raw = ?, dirty = ? WHERE person_id = ?",
                           arguments: [Data(text.utf8), card.dirty == .new ? BookCard.Dirty.new : .changed, id])
            return
        }
        let folder = try checkedFolder(card, book)
        let original = String(decoding: try folder.read(card.href), as: UTF8.self)
        let etag = try folder.write(card.href, Array(VCardPatch.apply(person, to: original, now: now, removedFields: removedFields).utf8))
        try db.execute(sql: "UPDATE book_card SET etag = ? WHERE person_id = ?", arguments: [etag, id])
    }

    /// A new card in `bookName` for `person` (stored as `id`): a file named after its UID (one is made when it has
    /// none). Answers the person with the UID it was given.
    static func added(_ person: Person, id: Int64, book bookName: String, db: Database, now: Date) throws -> Person {
        let book = try book(named: bookName, db: db)
        var stored = person
        if stored.uid == nil {
            stored.uid = UUID().uuidString.lowercased()
            try db.execute(sql: "UPDATE person SET uid = ? WHERE id = ?", arguments: [stored.uid, id])
        }
        if book.kind == .carddav {
            var href = Self.href(for: stored.uid ?? "")
            while try Bool.fetchOne(db, sql: "SELECT 1 FROM book_card WHERE book = ? AND href = ?", arguments: [book.name, href]) == true {
                href = Self.href(for: UUID().uuidString.lowercased())
            }
            let card = VCardPatch.newCard(stored, uid: stored.uid ?? "", now: now)
            try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag, raw, dirty) VALUES (?, ?, ?, '', ?, ?)",
                           arguments: [id, book.name, href, Data(card.utf8), BookCard.Dirty.new])
            return stored
        }
        let folder = VdirFolder(path: book.location)
        guard folder.exists else { throw BookError.folderMissing(book: book.name, path: book.location) }
        var href = Self.href(for: stored.uid ?? "")
        while folder.etag(href) != nil { href = Self.href(for: UUID().uuidString.lowercased()) }
        let etag = try folder.write(href, Array(VCardPatch.newCard(stored, uid: stored.uid ?? "", now: now).utf8))
        try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag) VALUES (?, ?, ?, ?)",
                       arguments: [id, book.name, href, etag])
        return stored
    }

    /// A file name for a UID: its letters, digits, `-`, `_` and `.` (others become `_`), `.vcf`.
    static func href(for uid: String) -> String {
        let safe = String(uid.unicodeScalars.map { s -> Character in
            s.isASCII && (CharacterSet.alphanumerics.contains(s) || "-_.".unicodeScalars.contains(s)) ? Character(s) : "_"
        }.prefix(120))
        return (safe.isEmpty || safe.hasPrefix(".") ? "card-" + safe : safe) + ".vcf"
    }

    /// Before the people `ids` are deleted: their card files are removed, their bytes kept for `restored`.
    static func removed(ids: [Int64], db: Database, now: Date) throws {
        try db.execute(sql: "DELETE FROM book_trash WHERE deleted_ms < ?",
                       arguments: [Int64((now.timeIntervalSince1970 - trashKept) * 1000)])
        for id in ids {
            guard let (card, book) = try card(personId: id, db: db) else { continue }
            if book.kind == .carddav {
                try db.execute(sql: "INSERT OR REPLACE INTO book_trash (person_id, book, href, etag, card, deleted_ms) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [id, card.book, card.href, card.etag, card.raw ?? Data(), Int64(now.timeIntervalSince1970 * 1000)])
                // The server is told at the next sync; a card it never had needs no word.
                if card.dirty != .new {
                    try db.execute(sql: "INSERT OR REPLACE INTO book_tombstone (book, href, etag) VALUES (?, ?, ?)",
                                   arguments: [card.book, card.href, card.etag])
                }
                continue
            }
            let folder = try checkedFolder(card, book)
            let bytes = try folder.read(card.href)
            try db.execute(sql: "INSERT OR REPLACE INTO book_trash (person_id, book, href, etag, card, deleted_ms) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [id, card.book, card.href, card.etag, Data(bytes), Int64(now.timeIntervalSince1970 * 1000)])
            // Removed once the delete is stored: a delete that fails leaves the card where it was.
            db.afterNextTransaction(onCommit: { _ in
                do { try folder.remove(card.href) } catch {
                    Logger(label: "herald.books").warning("cannot remove a deleted contact's card; the next sync brings it back",
                                                          metadata: ["cause": "\(error)"])
                }
            })
        }
    }

    /// After deleted people came back under their ids: their card files are put back as they were.
    static func restored(ids: [Int64], db: Database) throws {
        for id in ids {
            guard let row = try Row.fetchOne(db, sql: "SELECT book, href, card, etag FROM book_trash WHERE person_id = ?",
                                             arguments: [id]) else { continue }
            let bookName: String = row[0], href: String = row[1], bytes: Data = row[2], etag: String = row[3]
            let book: AddressBook
            do { book = try self.book(named: bookName, db: db) } catch BookError.unknownBook, BookError.leftOut {
                continue        // the book left the config meanwhile: the person comes back as a contact of no book
            }
            if book.kind == .carddav {
                // Still on the server unless a sync sent the delete meanwhile: then it is sent again, as new.
                let told = try Bool.fetchOne(db, sql: "SELECT 1 FROM book_tombstone WHERE book = ? AND href = ?",
                                             arguments: [bookName, href]) != true && !etag.isEmpty
                try db.execute(sql: "DELETE FROM book_tombstone WHERE book = ? AND href = ?", arguments: [bookName, href])
                try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag, raw, dirty) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [id, bookName, href, told ? "" : etag, bytes, told || etag.isEmpty ? BookCard.Dirty.new : .clean])
                try db.execute(sql: "DELETE FROM book_trash WHERE person_id = ?", arguments: [id])
                continue
            }
            let folder = VdirFolder(path: book.location)
            guard folder.etag(href) == nil else { throw BookError.changedOnDisk(book: bookName, file: folder.file(href)) }
            let written = try folder.write(href, [UInt8](bytes))
            try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag) VALUES (?, ?, ?, ?)",
                           arguments: [id, bookName, href, written])
            try db.execute(sql: "DELETE FROM book_trash WHERE person_id = ?", arguments: [id])
        }
    }
}
