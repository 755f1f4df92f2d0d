import GRDB
import HeraldCore

/// What identifies the stored people (UID, E.164 number, normalised email), held in memory for
/// the length of one import so that matching a card costs no query. It reloads itself when the
/// contacts changed behind its back (another process, another store), seen by the generation.
final class MatchIndex {
    private var generation: Int64?
    private var byUID: [MatchKey: Int64] = [:]
    private var byPhone: [MatchKey: Int64] = [:]
    private var byEmail: [MatchKey: Int64] = [:]
    private var uidOf: [Int64: String] = [:]

    /// Room for about `people` more people without growing the tables on the way.
    func reserve(people: Int) {
        byUID.reserveCapacity(byUID.count + people)
        byPhone.reserveCapacity(byPhone.count + people * 2)
        byEmail.reserveCapacity(byEmail.count + people)
        uidOf.reserveCapacity(uidOf.count + people)
    }

    /// Makes sure the index reflects `db`; call at the start of each write transaction.
    func refresh(_ db: Database) throws {
        let current = try PersonRows.generation(db)
        if current == generation { return }
        byUID.removeAll(keepingCapacity: true)
        byPhone.removeAll(keepingCapacity: true)
        byEmail.removeAll(keepingCapacity: true)
        uidOf.removeAll(keepingCapacity: true)
        // Lowest id first, as the queries this replaces (`… LIMIT 1` over an index) would find them.
        let people = try Row.fetchCursor(db, sql: "SELECT id, uid FROM person WHERE uid IS NOT NULL ORDER BY id")
        while let row = try people.next() {
            let id: Int64 = row[0], uid: String = row[1]
            uidOf[id] = uid
            let key = MatchKey(uid)
            if byUID[key] == nil { byUID[key] = id }
        }
        let phones = try Row.fetchCursor(db, sql: "SELECT e164, person_id FROM phone WHERE e164 IS NOT NULL ORDER BY id")
        while let row = try phones.next() {
            let e164 = MatchKey(row[0] as String)
            if byPhone[e164] == nil { byPhone[e164] = row[1] }
        }
        let emails = try Row.fetchCursor(db, sql: "SELECT address_norm, person_id FROM email ORDER BY id")
        while let row = try emails.next() {
            let address = MatchKey(row[0] as String)
            if byEmail[address] == nil { byEmail[address] = row[1] }
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
        if let uid = keys.uid, let id = byUID[uid] { return id }
        func acceptable(_ id: Int64) -> Bool {
            guard let uid = p.uid else { return true }
            let other = uidOf[id]
            return other == nil || other == uid
        }
        for number in keys.numbers {
            if let id = byPhone[number], acceptable(id) { return id }
        }
        for email in keys.emails {
            if let id = byEmail[email], acceptable(id) { return id }
        }
        return nil
    }

    /// Records what person `id` (just inserted or updated to `p`, stored under `keys`) can be found by.
    func record(_ p: Person, id: Int64, keys: PersonRows.Keys) {
        if let uid = p.uid, let key = keys.uid {
            if uidOf[id] == nil { uidOf[id] = uid }
            if byUID[key] == nil { byUID[key] = id }
        }
        for number in keys.numbers where byPhone[number] == nil { byPhone[number] = id }
        for email in keys.emails where byEmail[email] == nil { byEmail[email] = id }
    }
}

/// A UID, number or address with its hash worked out where it was made (an import's reading
/// thread), so that the writing thread only compares.
struct MatchKey: Hashable, Sendable {
    let text: String
    let hash: Int

    init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    static func == (a: MatchKey, b: MatchKey) -> Bool { a.hash == b.hash && a.text == b.text }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
