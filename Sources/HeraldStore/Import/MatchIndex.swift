import GRDB
import HeraldCore

/// What identifies the stored people (UID, E.164 number, normalised email), held in memory for
/// the length of one import so that matching a card costs no query. It reloads itself when the
/// contacts changed behind its back (another process, another store), seen by the generation.
final class MatchIndex {
    private var generation: Int64?
    private var byUID: [String: Int64] = [:]
    private var byPhone: [String: Int64] = [:]
    private var byEmail: [String: Int64] = [:]
    private var uidOf: [Int64: String] = [:]

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
            if byUID[uid] == nil { byUID[uid] = id }
        }
        let phones = try Row.fetchCursor(db, sql: "SELECT e164, person_id FROM phone WHERE e164 IS NOT NULL ORDER BY id")
        while let row = try phones.next() {
            let e164: String = row[0]
            if byPhone[e164] == nil { byPhone[e164] = row[1] }
        }
        let emails = try Row.fetchCursor(db, sql: "SELECT address_norm, person_id FROM email ORDER BY id")
        while let row = try emails.next() {
            let address: String = row[0]
            if byEmail[address] == nil { byEmail[address] = row[1] }
        }
        generation = current
    }

    /// Remembers the generation this process just wrote, so the next batch does not reload.
    func wrote(_ db: Database) throws {
        generation = try PersonRows.generation(db)
    }

    /// The stored person `p` is: same UID, else a shared number, else a shared email — never one
    /// with a different UID. `emails` are `p`'s addresses normalised (`PersonRows.normalisedEmail`).
    func match(_ p: Person, emails: [String]) -> Int64? {
        if let uid = p.uid, let id = byUID[uid] { return id }
        func acceptable(_ id: Int64) -> Bool {
            guard let uid = p.uid else { return true }
            let other = uidOf[id]
            return other == nil || other == uid
        }
        for phone in p.phones {
            if let e164 = phone.number.e164, let id = byPhone[e164], acceptable(id) { return id }
        }
        for key in emails {
            if let id = byEmail[key], acceptable(id) { return id }
        }
        return nil
    }

    /// Records what person `id` (just inserted or updated to `p`, whose normalised addresses are
    /// `emails`) can be found by.
    func record(_ p: Person, id: Int64, emails: [String]) {
        if let uid = p.uid {
            if uidOf[id] == nil { uidOf[id] = uid }
            if byUID[uid] == nil { byUID[uid] = id }
        }
        for ph in p.phones {
            if let e164 = ph.number.e164, byPhone[e164] == nil { byPhone[e164] = id }
        }
        for key in emails where byEmail[key] == nil { byEmail[key] = id }
    }
}
