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
}

/// What an edit does to the card files: called inside the edit's transaction, after the person is stored, so a card
/// that cannot be written rolls the edit back (nothing changes on either side). Only vdir books are written here.
enum BookCards {
    /// How long the bytes of a deleted card are kept for an undo.
    static let trashKept: TimeInterval = 24 * 3600

    static func card(personId: Int64, db: Database) throws -> (card: BookCard, book: AddressBook)? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT c.person_id, c.book, c.href, c.etag, b.kind, b.location FROM book_card c JOIN book b ON b.name = c.book
            WHERE c.person_id = ?
            """, arguments: [personId]) else { return nil }
        let book = AddressBook(name: row[1], kind: AddressBook.Kind(rawValue: row[4]) ?? .vdir, location: row[5])
        return (BookCard(personId: row[0], book: row[1], href: row[2], etag: row[3]), book)
    }

    static func book(named name: String, db: Database) throws -> AddressBook {
        guard let row = try Row.fetchOne(db, sql: "SELECT name, kind, location FROM book WHERE name = ?", arguments: [name]) else {
            throw BookError.unknownBook(name, known: try String.fetchAll(db, sql: "SELECT name FROM book ORDER BY name"))
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

    /// After `person` (stored as `id`) changed: its card file, if it has one, says the same.
    static func written(_ person: Person, id: Int64, db: Database, now: Date) throws {
        guard let (card, book) = try card(personId: id, db: db) else { return }
        let folder = try checkedFolder(card, book)
        let original = String(decoding: try folder.read(card.href), as: UTF8.self)
        let etag = try folder.write(card.href, Array(VCardPatch.apply(person, to: original, now: now).utf8))
        try db.execute(sql: "UPDATE book_card SET etag = ? WHERE person_id = ?", arguments: [etag, id])
    }

    /// A new card in `bookName` for `person` (stored as `id`): a file named after its UID (one is made when it has
    /// none). Answers the person with the UID it was given.
    static func added(_ person: Person, id: Int64, book bookName: String, db: Database, now: Date) throws -> Person {
        let book = try book(named: bookName, db: db)
        let folder = VdirFolder(path: book.location)
        guard folder.exists else { throw BookError.folderMissing(book: book.name, path: book.location) }
        var stored = person
        if stored.uid == nil {
            stored.uid = UUID().uuidString.lowercased()
            try db.execute(sql: "UPDATE person SET uid = ? WHERE id = ?", arguments: [stored.uid, id])
        }
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
            let folder = try checkedFolder(card, book)
            let bytes = try folder.read(card.href)
            try db.execute(sql: "INSERT OR REPLACE INTO book_trash (person_id, book, href, card, deleted_ms) VALUES (?, ?, ?, ?, ?)",
                           arguments: [id, card.book, card.href, Data(bytes), Int64(now.timeIntervalSince1970 * 1000)])
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
            guard let row = try Row.fetchOne(db, sql: "SELECT book, href, card FROM book_trash WHERE person_id = ?", arguments: [id]) else {
                continue
            }
            let bookName: String = row[0], href: String = row[1], bytes: Data = row[2]
            guard let book = try? book(named: bookName, db: db) else { continue }     // the book left the config meanwhile
            let folder = VdirFolder(path: book.location)
            guard folder.etag(href) == nil else { throw BookError.changedOnDisk(book: bookName, file: folder.file(href)) }
            let etag = try folder.write(href, [UInt8](bytes))
            try db.execute(sql: "INSERT OR REPLACE INTO book_card (person_id, book, href, etag) VALUES (?, ?, ?, ?)",
                           arguments: [id, bookName, href, etag])
            try db.execute(sql: "DELETE FROM book_trash WHERE person_id = ?", arguments: [id])
        }
    }
}
