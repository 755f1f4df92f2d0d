import Foundation
import HeraldCore

extension SearchIndex {
    /// One filter of a query, worked out once for every person checked.
    struct Filter {
        /// The folded words to find among the names (all of them, in the fields `fields`; nil: any field).
        var words: [[UInt8]]
        /// The value as one phrase, when it has several words.
        var phrase: [UInt8]?
        var fields: ClosedRange<Int>?
        /// The digits to find among the numbers.
        var digits: [UInt8]?
        var negated: Bool

        init?(_ term: ContactQuery.Term) {
            negated = term.negated
            let folded = TextFolding.fold(SearchIndex.clean(term.value))
            let split = folded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.utf8) }
            words = []
            switch term.field {
            case .any:
                words = [Array(folded.utf8)]
                digits = term.numberDigits.map { Array($0.utf8) }
            case .name:
                // A name may be written across the first and last name: every word in some name field.
                phrase = split.count > 1 ? Array(folded.utf8) : nil
                words = split
                fields = 0...2
            case .org:
                words = [Array(folded.utf8)]
                fields = 3...3
            case .email:
                words = [Array(folded.utf8)]
                fields = 4...4
            case .phone:
                digits = term.numberDigits.map { Array($0.utf8) }
            case .book, .status, .group, .segment:
                return nil
            }
        }
    }

    /// A filter with how each of its needles is looked for in this index, worked out once per query.
    struct Probed {
        let filter: Filter
        let words: [Probe]
        let phrase: Probe?
        let digits: Probe?
    }

    /// Matches a query with filters: the plain words ranked as `search(_:byLastName:limit:)` ranks them (everyone in
    /// name order when there are none), then each filter keeps or drops a person, and `keep` (the ledger's `status:`)
    /// last. A query of plain words alone is the plain search.
    ///
    /// `within` (the people of a `group:`, `book:` or `segment:`, when the query asks for them) says where the matches
    /// can only be: with no plain words, in first-name order, just those people are looked at, not the whole index.
    func search(_ query: ContactQuery, byLastName: Bool, limit: Int?,
                keep: ((Int64) -> Bool)? = nil, within: Set<Int64>? = nil) -> (total: Int, hits: [SearchHit]) {
        let filters = query.filters.compactMap(Filter.init).map {
            Probed(filter: $0, words: $0.words.map { probe($0, isText: true) }, phrase: $0.phrase.map { probe($0, isText: true) },
                   digits: $0.digits.map { probe($0, isText: false) })
        }
        let plain = query.plainWords
        if filters.isEmpty && keep == nil { return search(plain, byLastName: byLastName, limit: limit) }
        var kept: [SearchHit] = []
        let wanted = limit ?? Int.max
        var total = 0
        func consider(_ entry: Int, score: Int) {
            for probed in filters where matches(probed, entry: entry) == probed.filter.negated { return }
            if let keep, !keep(ids[entry]) { return }
            total += 1
            if kept.count < wanted { kept.append(SearchHit(personId: ids[entry], score: score)) }
        }
        if plain.isEmpty, !byLastName, let within, within.count < count / 4 {
            let positions = entryPositions.positions(ids)
            var entries = within.compactMap { positions[$0] }
            entries.sort()
            for entry in entries { consider(Int(entry), score: 0) }
        } else if plain.isEmpty {
            if byLastName {
                for entry in lastOrder { consider(Int(entry), score: 0) }
            } else {
                for entry in 0..<count { consider(entry, score: 0) }
            }
        } else {
            let positions = entryPositions.positions(ids)
            for hit in search(plain, byLastName: byLastName, limit: nil).hits {
                if let entry = positions[hit.personId] { consider(Int(entry), score: hit.score) }
            }
        }
        return (total, kept)
    }

    /// Whether a filter (ignoring its `not`) matches the person at `entry`.
    func matches(_ probed: Probed, entry: Int) -> Bool {
        let filter = probed.filter
        if let digits = filter.digits, let probe = probed.digits,
           occurs(digits, probe, entry: entry, in: self.digits, starts: digitStart, isText: false, fields: nil) { return true }
        if let phrase = filter.phrase, let probe = probed.phrase,
           occurs(phrase, probe, entry: entry, in: text, starts: textStart, isText: true, fields: filter.fields) { return true }
        guard !filter.words.isEmpty else { return false }
        return zip(filter.words, probed.words).allSatisfy {
            occurs($0, $1, entry: entry, in: text, starts: textStart, isText: true, fields: filter.fields)
        }
    }

    /// Whether `needle` occurs in the entry's bytes, inside one of `fields` (nil: anywhere).
    private func occurs(_ needle: [UInt8], _ probe: Probe, entry: Int, in buffer: [UInt8], starts: [Int32], isText: Bool,
                        fields: ClosedRange<Int>?) -> Bool {
        guard !needle.isEmpty else { return false }
        return buffer.withUnsafeBufferPointer { buf in
            needle.withUnsafeBufferPointer { nd in
                guard let base = buf.baseAddress, let nbase = nd.baseAddress else { return false }
                let start = Int(starts[entry]), end = Int(starts[entry + 1])
                var offset = start, fieldPos = start, field = 0
                while offset < end {
                    guard let hit = Self.find(base + offset, end - offset, nbase, nd.count, probe) else { return false }
                    let pos = hit - base
                    guard isText, let fields else { return true }
                    field += Self.separators(base, from: fieldPos, to: pos)
                    fieldPos = pos
                    if fields.contains(field) { return true }
                    if field > fields.upperBound { return false }
                    offset = pos + 1
                }
                return false
            }
        }
    }
}

/// Where each person id is among an index's entries, worked out on first use (under a lock: searches may come from
/// any thread).
final class EntryPositions: @unchecked Sendable {
    private let lock = NSLock()
    private var positions: [Int64: Int32]?

    func positions(_ ids: [Int64]) -> [Int64: Int32] {
        lock.withLock {
            if let positions { return positions }
            var made: [Int64: Int32] = [:]
            made.reserveCapacity(ids.count)
            for (i, id) in ids.enumerated() { made[id] = Int32(i) }
            positions = made
            return made
        }
    }
}
