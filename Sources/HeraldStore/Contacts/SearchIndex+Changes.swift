import Foundation
import GRDB

extension SearchIndex {
    /// The most people an index takes again one by one; beyond that it is built again from the whole book. Each one
    /// placed costs two counts over a sort index (about half of it each), so past a few dozen a rebuild is as quick.
    static let maxChangedPeople = 16

    /// This index brought up to the contacts as they are in `db`, taking again only the people changed since it was
    /// made (`person_change`); nil when that cannot be done (changes it has not seen were forgotten, too many people
    /// changed, or what it holds does not add up with the database), and the index is then built again.
    func caughtUp(_ db: Database) throws -> SearchIndex? {
        let generation = try PersonRows.generation(db)
        let lastChange = try PersonRows.lastChange(db)
        // The changes since this index was made must all be kept (none forgotten in between).
        let oldest = try Int64.fetchOne(db, sql: "SELECT MIN(seq) FROM person_change") ?? lastChange + 1
        guard oldest <= changeSeq + 1, lastChange >= changeSeq else { return nil }
        let changed = try Int64.fetchAll(db, sql: "SELECT DISTINCT person_id FROM person_change WHERE seq > ? LIMIT ?",
                                         arguments: [changeSeq, Self.maxChangedPeople + 1])
        guard changed.count <= Self.maxChangedPeople else { return nil }
        if changed.isEmpty {
            // The generation moved with nobody's keys (a book's settings): the same entries, under the new stamp.
            return SearchIndex(generation: generation, changeSeq: lastChange, ids: ids, text: text, textStart: textStart,
                               digits: digits, digitStart: digitStart, lastRank: lastRank)
        }
        return try taking(Set(changed), generation: generation, changeSeq: lastChange, db: db)
    }

    /// A person as the index holds them: the key bytes, and where they stand in either name order.
    private struct Taken {
        var text: [UInt8] = []
        var digits: [UInt8] = []
        var firstAt = 0
        var lastAt = 0
    }

    /// A new index with the `changed` people as they are in `db` (gone, added or changed) and everyone else as here.
    private func taking(_ changed: Set<Int64>, generation: Int64, changeSeq: Int64, db: Database) throws -> SearchIndex? {
        var taken: [Int64: Taken] = [:]
        let rows = try Row.fetchCursor(db, sql: """
            SELECT id, search_key, phone_key,
                   (SELECT COUNT(*) FROM person o WHERE (o.sort_first, o.id) < (p.sort_first, p.id)),
                   (SELECT COUNT(*) FROM person o WHERE (o.sort_last, o.id) < (p.sort_last, p.id))
            FROM person p WHERE id IN (\(changed.map(String.init).joined(separator: ",")))
            """)
        while let row = try rows.next() {
            var person = Taken(firstAt: row[3], lastAt: row[4])
            try row.withUnsafeData(atIndex: 1) { data in if let data { person.text.append(contentsOf: data) } }
            try row.withUnsafeData(atIndex: 2) { data in if let data { person.digits.append(contentsOf: data) } }
            taken[row[0]] = person
        }
        let kept = ids.count - ids.reduce(0) { $0 + (changed.contains($1) ? 1 : 0) }
        let count = kept + taken.count
        // Everyone changed goes where the database puts them; the others keep their order around them.
        var firstSlots = [Int64?](repeating: nil, count: count)
        var lastSlots = [Int64?](repeating: nil, count: count)
        for (id, person) in taken {
            guard person.firstAt < count, person.lastAt < count, firstSlots[person.firstAt] == nil,
                  lastSlots[person.lastAt] == nil else { return nil }
            firstSlots[person.firstAt] = id
            lastSlots[person.lastAt] = id
        }
        var newIds: [Int64] = [], newText: [UInt8] = [], newDigits: [UInt8] = []
        var newTextStart: [Int32] = [], newDigitStart: [Int32] = []
        newIds.reserveCapacity(count)
        newTextStart.reserveCapacity(count + 1)
        newDigitStart.reserveCapacity(count + 1)
        newText.reserveCapacity(text.count + 256 * taken.count)
        newDigits.reserveCapacity(digits.count + 64 * taken.count)
        /// Where each entry of this index is in the new one (-1 when changed).
        var moved = [Int32](repeating: -1, count: ids.count)
        var old = 0
        for slot in 0..<count {
            newTextStart.append(Int32(newText.count))
            newDigitStart.append(Int32(newDigits.count))
            if let id = firstSlots[slot], let person = taken[id] {
                newIds.append(id)
                newText.append(contentsOf: person.text)
                newText.append(Self.entryEnd)
                newDigits.append(contentsOf: person.digits)
                newDigits.append(Self.entryEnd)
                continue
            }
            while old < ids.count && changed.contains(ids[old]) { old += 1 }
            guard old < ids.count else { return nil }
            moved[old] = Int32(slot)
            newIds.append(ids[old])
            newText.append(contentsOf: text[Int(textStart[old])..<Int(textStart[old + 1])])
            newDigits.append(contentsOf: digits[Int(digitStart[old])..<Int(digitStart[old + 1])])
            old += 1
        }
        // Every entry left as it was is placed, and the database holds as many people as the new index.
        while old < ids.count && changed.contains(ids[old]) { old += 1 }
        guard old == ids.count, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") == count else { return nil }
        newTextStart.append(Int32(newText.count))
        newDigitStart.append(Int32(newDigits.count))
        var position: [Int64: Int32] = [:]
        for slot in 0..<count where firstSlots[slot] != nil { position[newIds[slot]] = Int32(slot) }
        var newLastRank = [Int32](repeating: 0, count: count)
        var next = lastOrder.makeIterator()
        for rank in 0..<count {
            if let id = lastSlots[rank], let entry = position[id] {
                newLastRank[Int(entry)] = Int32(rank)
                continue
            }
            var entry: Int32 = -1
            while entry < 0, let e = next.next() { entry = moved[Int(e)] }
            guard entry >= 0 else { return nil }
            newLastRank[Int(entry)] = Int32(rank)
        }
        return SearchIndex(generation: generation, changeSeq: changeSeq, ids: newIds, text: newText, textStart: newTextStart,
                           digits: newDigits, digitStart: newDigitStart, lastRank: newLastRank)
    }
}
