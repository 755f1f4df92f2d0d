import GRDB
import HeraldCore

/// What identifies the stored people (UID, E.164 number, normalised email; then a number's digits as written, and
/// the name of a card that has nothing else), held in memory for
/// the length of one import so that matching a card costs no query. It reloads itself when the
/// contacts changed behind its back (another process, another store), seen by the generation.
final class MatchIndex {
    private var generation: Int64?
    private var byUID = MatchTable()
    private var byPhone = MatchTable()
    private var byEmail = MatchTable()
    private var byWritten = MatchTable()
    private var byNameOnly = MatchTable()
    private var uidOf: [Int64: String] = [:]

    /// Room for about `people` more people without growing the tables on the way.
    func reserve(people: Int) {
        byUID.reserve(byUID.count + people)
        byPhone.reserve(byPhone.count + people * 2)
        byEmail.reserve(byEmail.count + people)
        byWritten.reserve(byWritten.count + people * 2)
        uidOf.reserveCapacity(uidOf.count + people)
    }

    /// Makes sure the index reflects `db`; call at the start of each write transaction.
    func refresh(_ db: Database) throws {
        let current = try PersonRows.generation(db)
        if current == generation { return }
        byUID.removeAll()
        byPhone.removeAll()
        byEmail.removeAll()
        byWritten.removeAll()
        byNameOnly.removeAll()
        uidOf.removeAll(keepingCapacity: true)
        // Lowest id first, as the queries this replaces (`… LIMIT 1` over an index) would find them.
        let people = try Row.fetchCursor(db, sql: "SELECT id, uid FROM person WHERE uid IS NOT NULL ORDER BY id")
        while let row = try people.next() {
            let id: Int64 = row[0], uid: String = row[1]
            uidOf[id] = uid
            byUID.insertIfAbsent(MatchKey(uid), id)
        }
        // One pass over the numbers: by E.164, and by the digits as written.
        let phones = try Row.fetchCursor(db, sql: "SELECT e164, raw, person_id FROM phone ORDER BY id")
        while let row = try phones.next() {
            let person: Int64 = row[2]
            if let e164: String = row[0] { byPhone.insertIfAbsent(MatchKey(e164), person) }
            if let digits = PersonRows.writtenDigits(row[1]) { byWritten.insertIfAbsent(MatchKey(digits), person) }
        }
        let emails = try Row.fetchCursor(db, sql: "SELECT address_norm, person_id FROM email ORDER BY id")
        while let row = try emails.next() {
            byEmail.insertIfAbsent(MatchKey(row[0] as String), row[1])
        }
        let named = try Row.fetchCursor(db, sql: """
            SELECT id, sort_first FROM person p WHERE uid IS NULL AND sort_first <> ''
              AND NOT EXISTS (SELECT 1 FROM phone WHERE person_id = p.id) AND NOT EXISTS (SELECT 1 FROM email WHERE person_id = p.id)
            ORDER BY id
            """)
        while let row = try named.next() {
            byNameOnly.insertIfAbsent(MatchKey(row[1] as String), row[0])
        }
        generation = current
    }

    /// Remembers the generation this process just wrote, so the next batch does not reload.
    func wrote(_ db: Database) throws {
        generation = try PersonRows.generation(db)
    }

    /// The stored person `p` (whose keys are `keys`) is: same UID, else a shared number, else a
    /// shared email — never one with a different UID.
    func match(_ p: Person, keys: PersonRows.Keys) -> Int64? {
        if let uid = keys.uid, let id = byUID.id(for: uid) { return id }
        func acceptable(_ id: Int64) -> Bool {
            guard let uid = p.uid else { return true }
            let other = uidOf[id]
            return other == nil || other == uid
        }
        for number in keys.numbers {
            if let id = byPhone.id(for: number), acceptable(id) { return id }
        }
        for email in keys.emails {
            if let id = byEmail.id(for: email), acceptable(id) { return id }
        }
        // The same number written the same way, read before with another region (or none): the same person.
        for number in keys.writtenNumbers {
            if let id = byWritten.id(for: number), acceptable(id) { return id }
        }
        if let name = keys.nameOnly { return byNameOnly.id(for: name) }
        return nil
    }

    /// Records what person `id` (just inserted or updated to `p`, stored under `keys`) can be found by.
    func record(_ p: Person, id: Int64, keys: PersonRows.Keys) {
        if let uid = p.uid, let key = keys.uid {
            if uidOf[id] == nil { uidOf[id] = uid }
            byUID.insertIfAbsent(key, id)
        }
        for number in keys.numbers { byPhone.insertIfAbsent(number, id) }
        for email in keys.emails { byEmail.insertIfAbsent(email, id) }
        for number in keys.writtenNumbers { byWritten.insertIfAbsent(number, id) }
        if let name = keys.nameOnly { byNameOnly.insertIfAbsent(name, id) }
    }
}

/// A UID, number or address with its hash worked out where it was made (an import's keying
/// thread), so that the writing thread only compares.
struct MatchKey: Sendable {
    let text: String
    let hash: Int

    init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    static func == (a: MatchKey, b: MatchKey) -> Bool { a.hash == b.hash && a.text == b.text }
}

/// Person ids by `MatchKey`: open addressing over the keys' own hashes (random per process, as Swift's
/// are), without the `Hasher` a `Dictionary` runs again on every lookup, which cost the writing thread
/// of an import about a tenth of its time. The first id recorded for a key stays.
struct MatchTable {
    private struct Slot {
        let key: MatchKey
        let id: Int64
    }
    private var slots: [Slot?] = Array(repeating: nil, count: 16)
    private(set) var count = 0

    /// Room for `keys` keys without growing (the table stays at most half full).
    mutating func reserve(_ keys: Int) {
        var size = slots.count
        while size < keys * 2 { size *= 2 }
        if size > slots.count { rehash(size) }
    }

    mutating func removeAll() {
        for i in slots.indices { slots[i] = nil }
        count = 0
    }

    func id(for key: MatchKey) -> Int64? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var i = key.hash & mask
            while let slot = slots[i] {
                if slot.key == key { return slot.id }
                i = (i + 1) & mask
            }
            return nil
        }
    }

    mutating func insertIfAbsent(_ key: MatchKey, _ id: Int64) {
        if (count + 1) * 2 > slots.count { rehash(slots.count * 2) }
        let mask = slots.count - 1
        var i = key.hash & mask
        while let slot = slots[i] {
            if slot.key == key { return }
            i = (i + 1) & mask
        }
        slots[i] = Slot(key: key, id: id)
        count += 1
    }

    private mutating func rehash(_ size: Int) {
        let old = slots
        slots = Array(repeating: nil, count: size)
        count = 0
        for case let slot? in old { insertIfAbsent(slot.key, slot.id) }
    }
}
