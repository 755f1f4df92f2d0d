import Foundation
import GRDB
import HeraldCore

/// What a CardDAV sync reads from and writes to the store: the cards it knows, the changes made here that the server
/// has not had yet, and the server's cards and deletions.
extension AddressBooks {
    /// A change made here the server has not had yet.
    public enum Push: Sendable, Hashable {
        /// A new card (`If-None-Match: *`).
        case create(personId: Int64, href: String, card: Data)
        /// A card changed here (`If-Match: etag`).
        case update(personId: Int64, href: String, etag: String, card: Data)
        /// A card deleted here (`If-Match: etag`).
        case delete(href: String, etag: String)
    }

    /// The book `name` as stored: its collection URL, sync token, and each card's etag by href.
    public func remoteState(_ name: String) throws -> (book: AddressBook, token: String?, etags: [String: String]) {
        try database.read { db in
            let book = try BookCards.book(named: name, db: db)
            let token = try String.fetchOne(db, sql: "SELECT sync_token FROM book WHERE name = ?", arguments: [name])
            let etags = try Row.fetchAll(db, sql: "SELECT href, etag FROM book_card WHERE book = ? AND dirty != 2", arguments: [name])
                .reduce(into: [String: String]()) { $0[$1[0]] = $1[1] }
            return (book, token, etags)
        }
    }

    /// The changes of book `name` waiting for the server: deletions first, then new and changed cards.
    public func pendingPushes(_ name: String) throws -> [Push] {
        try database.read { db in
            let deletes = try Row.fetchAll(db, sql: "SELECT href, etag FROM book_tombstone WHERE book = ? ORDER BY href", arguments: [name])
                .map { Push.delete(href: $0[0], etag: $0[1]) }
            let changes = try Row.fetchAll(db, sql: """
                SELECT person_id, href, etag, raw, dirty FROM book_card WHERE book = ? AND dirty != 0 AND raw IS NOT NULL ORDER BY href
                """, arguments: [name]).map { row -> Push in
                let dirty: Int = row[4]
                return dirty == BookCard.Dirty.new.rawValue
                    ? .create(personId: row[0], href: row[1], card: row[3])
                    : .update(personId: row[0], href: row[1], etag: row[2], card: row[3])
            }
            return deletes + changes
        }
    }

    /// The server took a change: the card is clean at its new etag (an href the server chose replaces Herald's).
    public func pushed(personId: Int64, href: String, etag: String, sent: Data) throws {
        try database.write { db in
            // Only when the card is still as sent: an edit made meanwhile stays to be sent.
            try db.execute(sql: "UPDATE book_card SET href = ?, etag = ?, dirty = CASE WHEN raw = ? THEN 0 ELSE 1 END WHERE person_id = ?",
                           arguments: [href, etag, sent, personId])
        }
    }

    /// The server deleted the card (or did not have it any more).
    public func deletedOnServer(_ name: String, href: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM book_tombstone WHERE book = ? AND href = ?", arguments: [name, href])
        }
    }

    /// The server's cards and deletions since the last sync, and the token to start from next time. A card changed
    /// here and there keeps the server's version, and Herald's goes to the conflicts (`conflicts`, `resolve`); a card
    /// deleted there but changed here is kept, to be sent again as new.
    public func applyRemote(_ name: String, cards: [(href: String, etag: String, card: Data)], removed: [String], token: String?,
                            report: inout BookSyncReport) throws {
        let phones = PhoneParseCache(parser: parser)
        let local = try database.read { db in
            // The text only of cards changed here (a conflict keeps it): a sync of a large book reads no more.
            try Row.fetchAll(db, sql: "SELECT href, person_id, dirty, CASE WHEN dirty != 0 THEN raw END FROM book_card WHERE book = ?",
                             arguments: [name])
                .reduce(into: [String: (id: Int64, dirty: Int, raw: Data?)]()) { $0[$1[0]] = ($1[1], $1[2], $1[3]) }
        }
        var read: [RemoteCard] = []
        var groupCards: [GroupCard] = []
        var conflicts: [(personId: Int64, mine: Data)] = []
        for card in cards {
            let where_ = "\(report.book): \(card.href)"
            do {
                let found = try VCardFile.people([UInt8](card.card), file: where_, phones: phones)
                report.issues += found.issues
                groupCards += found.groups
                guard let person = found.people.first else { continue }
                if let mine = local[card.href], mine.dirty != 0, let raw = mine.raw { conflicts.append((mine.id, raw)) }
                read.append(RemoteCard(href: card.href, etag: card.etag, person: person, raw: card.card))
            } catch {
                report.issues.append(ImportIssue(file: where_, line: 0, message: "\(error)"))
            }
        }
        try store(read, book: name, known: local.mapValues(\.id), report: &report)
        if !groupCards.isEmpty { try database.write { db in _ = try GroupCards.apply(groupCards, db: db) } }
        let stored = try database.read { db in try String.fetchOne(db, sql: "SELECT sync_token FROM book WHERE name = ?", arguments: [name]) }
        if conflicts.isEmpty && removed.isEmpty && (token == nil || token == stored) { return }
        let now = clock.now()
        try database.write { db in
            for conflict in conflicts {
                try db.execute(sql: "INSERT OR REPLACE INTO book_conflict (person_id, book, card, at_ms) VALUES (?, ?, ?, ?)",
                               arguments: [conflict.personId, name, conflict.mine, now.epochMilliseconds])
            }
            var gone = 0
            for href in removed {
                guard let mine = local[href] else { continue }
                if mine.dirty != 0 {
                    try db.execute(sql: "UPDATE book_card SET etag = '', dirty = 2 WHERE person_id = ?", arguments: [mine.id])
                } else {
                    try db.execute(sql: "DELETE FROM person WHERE id = ?", arguments: [mine.id])
                    gone += 1
                }
            }
            if gone > 0 || !conflicts.isEmpty { try PersonRows.bumpGeneration(db) }
            report.removed += gone
            if let token { try db.execute(sql: "UPDATE book SET sync_token = ? WHERE name = ?", arguments: [token, name]) }
        }
        report.conflicts += conflicts.count
    }

    /// Forgets book `name`'s sync token (the server refused it): the next sync reads the whole collection.
    public func forgetToken(_ name: String) throws {
        try database.write { db in try db.execute(sql: "UPDATE book SET sync_token = NULL WHERE name = ?", arguments: [name]) }
    }

    /// Cards changed on both sides: the person (now the server's version), Herald's version of the card and the
    /// server's.
    public func conflicts() throws -> [(personId: Int64, book: String, mine: String, theirs: String)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT f.person_id, f.book, f.card, c.raw FROM book_conflict f LEFT JOIN book_card c ON c.person_id = f.person_id
                ORDER BY f.at_ms, f.person_id
                """).map { row in
                let theirs: Data? = row[3]
                return (row[0], row[1], String(decoding: row[2] as Data, as: UTF8.self), theirs.map { String(decoding: $0, as: UTF8.self) } ?? "")
            }
        }
    }

    /// Settles a conflict: `keepMine` puts Herald's version back (sent at the next sync, over the server's), else the
    /// server's version stays. False when the person has no conflict.
    @discardableResult
    public func resolve(personId: Int64, keepMine: Bool) throws -> Bool {
        let now = clock.now()
        let phones = PhoneParseCache(parser: parser)
        return try database.write { db in
            guard let mine = try Data.fetchOne(db, sql: "SELECT card FROM book_conflict WHERE person_id = ?", arguments: [personId]) else {
                return false
            }
            if keepMine {
                let found = try VCardFile.people([UInt8](mine), file: "conflict", phones: phones)
                if var person = found.people.first {
                    person.smsNumber = try PersonRows.fetch(ids: [personId], db: db).first?.smsNumber
                    _ = try PersonRows.update(person, id: personId, db: db, now: now)
                }
                try db.execute(sql: "UPDATE book_card SET raw = ?, dirty = CASE dirty WHEN 2 THEN 2 ELSE 1 END WHERE person_id = ?",
                               arguments: [mine, personId])
                try PersonRows.bumpGeneration(db)
            }
            try db.execute(sql: "DELETE FROM book_conflict WHERE person_id = ?", arguments: [personId])
            return true
        }
    }
}
