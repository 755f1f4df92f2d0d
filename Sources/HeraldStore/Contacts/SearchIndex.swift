import Foundation
import GRDB
import HeraldCore

/// One search hit: a person id and how well it matched (higher is better).
public struct SearchHit: Sendable, Hashable {
    public let personId: Int64
    public let score: Int
}

/// An in-memory index over the folded search keys of every person.
///
/// The keys live in one contiguous byte buffer scanned with `memmem`, which answers a query over
/// 100,000 people in a few milliseconds without per-keystroke SQL. Entries are stored in first-name
/// order, so walking hits in entry order is walking them in display order.
final class SearchIndex: Sendable {
    static let entryEnd: UInt8 = 0x1E
    private static let fieldSep: UInt8 = 0x1F
    /// Weight of the field a term matched in: first name, last name, other name, organisation, email; then phone.
    private static let fieldWeights = [5, 5, 4, 3, 2]
    private static let phoneWeight = 4

    let generation: Int64
    /// The latest person change (`person_change.seq`) the index holds.
    let changeSeq: Int64
    let ids: [Int64]
    let text: [UInt8]
    let textStart: [Int32]
    let digits: [UInt8]
    let digitStart: [Int32]
    /// Position of each entry when sorted by last name.
    let lastRank: [Int32]
    /// Entries in last-name order (the inverse of `lastRank`).
    let lastOrder: [Int32]
    /// How often each byte occurs in `text`: a search looks for the rarest byte of a term first.
    private let textByteCounts: [Int]

    var count: Int { ids.count }

    /// Removes the bytes the index uses as separators from a key field.
    static func clean(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 < 0x20 }) else { return s }
        return String(s.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) })
    }

    static func build(_ db: Database) throws -> SearchIndex {
        let generation = try PersonRows.generation(db)
        let changeSeq = try PersonRows.lastChange(db)
        // Keys in table order (a sequential read), then placed in first-name order, which comes
        // from the sort index alone: far cheaper than walking the table in index order.
        let expected = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person") ?? 0
        var rowText: [UInt8] = [], rowDigits: [UInt8] = []
        var rowTextStart: [Int32] = [], rowDigitStart: [Int32] = []
        var rowOf: [Int64: Int32] = [:]
        rowText.reserveCapacity(expected * 64)
        rowDigits.reserveCapacity(expected * 24)
        rowTextStart.reserveCapacity(expected + 1)
        rowDigitStart.reserveCapacity(expected + 1)
        rowOf.reserveCapacity(expected)
        let cursor = try Row.fetchCursor(db, sql: "SELECT id, search_key, phone_key FROM person")
        while let row = try cursor.next() {
            rowOf[row[0]] = Int32(rowTextStart.count)
            rowTextStart.append(Int32(rowText.count))
            // The key's bytes straight from SQLite, without a String in between.
            try row.withUnsafeData(atIndex: 1) { data in if let data { rowText.append(contentsOf: data) } }
            rowDigitStart.append(Int32(rowDigits.count))
            try row.withUnsafeData(atIndex: 2) { data in if let data { rowDigits.append(contentsOf: data) } }
        }
        rowTextStart.append(Int32(rowText.count))
        rowDigitStart.append(Int32(rowDigits.count))

        var ids: [Int64] = []
        var text: [UInt8] = [], digits: [UInt8] = []
        var textStart: [Int32] = [], digitStart: [Int32] = []
        ids.reserveCapacity(rowOf.count)
        textStart.reserveCapacity(rowOf.count + 1)
        digitStart.reserveCapacity(rowOf.count + 1)
        text.reserveCapacity(rowText.count + rowOf.count)
        digits.reserveCapacity(rowDigits.count + rowOf.count)
        let byFirst = try Int64.fetchCursor(db, sql: "SELECT id FROM person ORDER BY sort_first, id")
        while let id = try byFirst.next() {
            guard let r = rowOf[id].map(Int.init) else { continue }
            ids.append(id)
            textStart.append(Int32(text.count))
            text.append(contentsOf: rowText[Int(rowTextStart[r])..<Int(rowTextStart[r + 1])])
            text.append(entryEnd)
            digitStart.append(Int32(digits.count))
            digits.append(contentsOf: rowDigits[Int(rowDigitStart[r])..<Int(rowDigitStart[r + 1])])
            digits.append(entryEnd)
        }
        textStart.append(Int32(text.count))
        digitStart.append(Int32(digits.count))
        var position: [Int64: Int32] = [:]
        position.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() { position[id] = Int32(i) }
        var lastRank = [Int32](repeating: 0, count: ids.count)
        var rank: Int32 = 0
        let byLast = try Int64.fetchCursor(db, sql: "SELECT id FROM person ORDER BY sort_last, id")
        while let id = try byLast.next() {
            if let i = position[id] { lastRank[Int(i)] = rank }
            rank += 1
        }
        return SearchIndex(generation: generation, changeSeq: changeSeq, ids: ids, text: text, textStart: textStart,
                           digits: digits, digitStart: digitStart, lastRank: lastRank)
    }

    init(generation: Int64, changeSeq: Int64, ids: [Int64], text: [UInt8], textStart: [Int32], digits: [UInt8],
                 digitStart: [Int32], lastRank: [Int32]) {
        self.generation = generation
        self.changeSeq = changeSeq
        self.ids = ids
        self.text = text
        self.textStart = textStart
        self.digits = digits
        self.digitStart = digitStart
        self.lastRank = lastRank
        var order = [Int32](repeating: 0, count: lastRank.count)
        for (entry, rank) in lastRank.enumerated() where Int(rank) < order.count { order[Int(rank)] = Int32(entry) }
        self.lastOrder = order
        var counts = [Int](repeating: 0, count: 256)
        for b in text { counts[Int(b)] &+= 1 }
        self.textByteCounts = counts
    }

    /// A parsed query: folded words, and the digits to look for among phone numbers.
    struct Query {
        var terms: [[UInt8]]
        /// Per term, the digits it contributes to phone matching (nil when the term is not a number).
        var digitTerms: [[UInt8]?]
        /// Identifies the query for narrowing: a query whose key starts with this one's key can
        /// only match people this one matched.
        var key: String

        init(_ raw: String) {
            let cleaned = SearchIndex.clean(raw)
            let phoneLike = cleaned.contains(where: \.isNumber)
                && cleaned.allSatisfy { ($0.isASCII && $0.isNumber) || " +-().".contains($0) }
            if phoneLike {
                let d = Array(cleaned.filter { $0.isASCII && $0.isNumber }.utf8)
                terms = [d]
                digitTerms = [d]
                key = "#" + String(decoding: d, as: UTF8.self)
                return
            }
            let folded = TextFolding.fold(cleaned)
            key = " " + folded.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
                + (folded.last.map { $0 == " " || $0 == "\t" } == true ? " " : "")
            terms = folded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.utf8) }
            terms.sort { $0.count > $1.count }
            digitTerms = terms.map { t in t.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } ? t : nil }
        }
    }

    /// Where each person id is among the entries (for queries with filters).
    let entryPositions = EntryPositions()
    /// The last query's matches, so that a query typed on from it only re-checks those.
    private let memo = SearchMemo()
    /// The last complete answer, for the same query asked again.
    private let lastAnswer = LastAnswer()
    /// Ranked answers to one-character queries (the first keystroke of a search, which matches most of the
    /// book and was the slowest one), worked out once per index.
    private let firstKeystrokes = FirstKeystrokeAnswers()

    /// Works out the answers to every one-letter (or one-digit) query in `sort` order now (off the UI thread, at start-up),
    /// so that the first keystroke of a search costs no pass over the book.
    func answerFirstKeystrokes(byLastName: Bool) {
        for letter in "abcdefghijklmnopqrstuvwxyz0123456789" { _ = search(String(letter), byLastName: byLastName, limit: nil) }
    }

    /// Matches `query`; returns how many people match and the best `limit` of them (all when nil),
    /// best score first, then name order.
    ///
    /// When the query extends the previous one (the next keystroke), only the previous matches are
    /// checked again, provided they are few enough for that to beat one pass over everything.
    func search(_ raw: String, byLastName: Bool, limit: Int?) -> (total: Int, hits: [SearchHit]) {
        let query = Query(raw)
        guard let first = query.terms.first, !first.isEmpty else { return (0, []) }
        let sortedKey = query.key + (byLastName ? "|last" : "|first")
        // The same query again ("+385" then "+385 ", or a reload): the answer just given.
        if limit == nil, let answer = lastAnswer.answer(sortedKey) { return answer }
        let oneLetter = query.terms.count == 1 && first.count == 1 ? sortedKey : nil
        if let oneLetter, let answer = firstKeystrokes.answer(oneLetter) {
            if answer.total > 0 && answer.matches.isEmpty { memo.forget() } else { memo.remember(query.key, answer.matches) }
            return (answer.total, answer.hits(limit: limit, ids: ids))
        }
        var scores = [Int32](repeating: 0, count: ids.count)
        var touched: [Int32] = []
        // How each term is looked for, worked out once for every person checked.
        let textProbes = query.terms.map { probe($0, isText: true) }
        let digitProbes = query.digitTerms.map { $0.map { probe($0, isText: false) } }
        if let previous = memo.candidates(for: query.key), previous.count <= ids.count / 4 {
            touched.reserveCapacity(previous.count)
            for e in previous {
                let entry = Int(e)
                var sum: Int32 = 0
                for t in query.terms.indices {
                    var best = bestScore(query.terms[t], textProbes[t], entry: entry, buffer: text, starts: textStart, isText: true)
                    if let d = query.digitTerms[t], let probe = digitProbes[t] {
                        best = max(best, bestScore(d, probe, entry: entry, buffer: digits, starts: digitStart, isText: false))
                    }
                    if best == 0 { sum = 0; break }
                    sum += Int32(best)
                }
                if sum > 0 {
                    scores[entry] = sum
                    touched.append(e)
                }
            }
        } else {
            // First (longest) term: one pass over everything.
            scan(needle: first, in: text, starts: textStart, isText: true, scores: &scores, touched: &touched)
            if let d = query.digitTerms[0] {
                let before = touched.count
                scan(needle: d, in: digits, starts: digitStart, isText: false, scores: &scores, touched: &touched)
                if before > 0 && touched.count > before { touched = Self.merged(touched, at: before) }
            }
            // Other terms: must match the same person.
            for t in 1..<query.terms.count {
                let term = query.terms[t]
                var kept: [Int32] = []
                kept.reserveCapacity(touched.count)
                for e in touched {
                    let entry = Int(e)
                    var best = bestScore(term, textProbes[t], entry: entry, buffer: text, starts: textStart, isText: true)
                    if let d = query.digitTerms[t], let probe = digitProbes[t] {
                        best = max(best, bestScore(d, probe, entry: entry, buffer: digits, starts: digitStart, isText: false))
                    }
                    if best > 0 {
                        scores[entry] += Int32(best)
                        kept.append(e)
                    } else {
                        scores[entry] = 0
                    }
                }
                touched = kept
            }
        }
        memo.remember(query.key, touched)
        guard let oneLetter else {
            let answer = rank(touched, scores: scores, byLastName: byLastName, limit: limit)
            if limit == nil { lastAnswer.store(sortedKey, answer) }
            return answer
        }
        let ranked = rankedEntries(touched, scores: scores, byLastName: byLastName, limit: nil)
        // The matches are kept for narrowing only when few enough to be used for it (see above).
        let answer = FirstKeystrokeAnswers.Answer(total: touched.count, ranked: ranked, scores: ranked.map { Int16(scores[Int($0)]) },
                                                  matches: touched.count <= ids.count / 4 ? touched : [])
        firstKeystrokes.store(oneLetter, answer)
        return (answer.total, answer.hits(limit: limit, ids: ids))
    }

    /// `runs` holds two ascending runs, split at `split`, with no entry in both: one ascending run.
    private static func merged(_ runs: [Int32], at split: Int) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(runs.count)
        var i = 0, j = split
        while i < split && j < runs.count {
            if runs[i] < runs[j] { out.append(runs[i]); i += 1 } else { out.append(runs[j]); j += 1 }
        }
        out.append(contentsOf: runs[i..<split])
        out.append(contentsOf: runs[j...])
        return out
    }

    /// Orders matches by score (highest first), then by name, with a counting sort over the few
    /// score levels; only the levels needed for `limit` are placed.
    private func rank(_ touched: [Int32], scores: [Int32], byLastName: Bool, limit: Int?) -> (total: Int, hits: [SearchHit]) {
        let entries = rankedEntries(touched, scores: scores, byLastName: byLastName, limit: limit)
        return (touched.count, entries.map { SearchHit(personId: ids[Int($0)], score: Int(scores[Int($0)])) })
    }

    /// The entries of `rank`, best first, at most `limit` of them.
    private func rankedEntries(_ touched: [Int32], scores: [Int32], byLastName: Bool, limit: Int?) -> [Int32] {
        let total = touched.count
        let wanted = min(limit ?? total, total)
        guard wanted > 0 else { return [] }
        var maxScore: Int32 = 0
        for e in touched where scores[Int(e)] > maxScore { maxScore = scores[Int(e)] }
        var counts = [Int](repeating: 0, count: Int(maxScore) + 1)
        for e in touched { counts[Int(scores[Int(e)])] += 1 }
        // Lowest level still needed to fill `wanted`, and where each level starts in the output.
        var next = [Int](repeating: 0, count: Int(maxScore) + 1)
        var placed = 0
        var threshold = Int(maxScore)
        while true {
            next[threshold] = placed
            placed += counts[threshold]
            if placed >= wanted || threshold == 0 { break }
            threshold -= 1
        }
        var out = [Int32](repeating: 0, count: placed)
        func place(_ e: Int32) {
            let level = Int(scores[Int(e)])
            guard level >= threshold else { return }
            out[next[level]] = e
            next[level] += 1
        }
        if byLastName {
            if touched.count * 8 < ids.count {
                for e in touched.sorted(by: { lastRank[Int($0)] < lastRank[Int($1)] }) { place(e) }
            } else {
                for e in lastOrder where scores[Int(e)] > 0 { place(e) }
            }
        } else {
            for e in touched { place(e) }
        }
        return Array(out.prefix(wanted))
    }

    private static func isBoundary(_ b: UInt8) -> Bool {
        b < 0x80 && !((b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A))
    }

    /// Scores one occurrence at `pos` of a needle of `len` bytes inside entry bytes `[start, end)`.
    /// `field` is the index of the field `pos` lies in (nil for phone digits).
    private static func score(_ buf: UnsafeBufferPointer<UInt8>, pos: Int, len: Int, start: Int, field: Int?) -> Int {
        let atStart = pos == start || isBoundary(buf[pos - 1])
        let atEnd = pos + len >= buf.count || isBoundary(buf[pos + len])
        var weight = phoneWeight
        if let field { weight = fieldWeights[min(field, fieldWeights.count - 1)] }
        // A word start (exact or prefix) beats a substring; then the field; then exact beats prefix.
        return (atStart ? 200 : 100) + weight * 10 + (atStart && atEnd ? 5 : 0)
    }

    /// How many field separators lie in `[from, to)` (memchr from one to the next).
    static func separators(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        var count = 0
        var p = base + from
        let end = base + to
        while p < end, let hit = memchr(p, Int32(fieldSep), end - p) {
            count += 1
            p = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return count
    }

    /// How a needle is looked for in one buffer. In the names: memchr on its rarest byte there (`first`, its
    /// offset in the needle), then memcmp. Among phone digits, where every byte is common (`pairs`): sixteen
    /// starts at a time are tested for two of its bytes (at offsets `first` and `second`), and only where
    /// both match is the rest compared.
    struct Probe {
        let first: Int
        let second: Int
        let pairs: Bool
    }

    /// The probe for `needle` in the names (memchr on its rarest byte there) or in the phone digits (paired bytes).
    func probe(_ needle: [UInt8], isText: Bool) -> Probe {
        guard needle.count >= 2 else { return Probe(first: 0, second: 0, pairs: false) }
        guard isText else { return Probe(first: 0, second: needle.count - 1, pairs: true) }
        var rarest = 0
        for i in needle.indices where textByteCounts[Int(needle[i])] < textByteCounts[Int(needle[rarest])] { rarest = i }
        return Probe(first: rarest, second: rarest, pairs: false)
    }

    /// First occurrence of `needle` in `hay`.
    static func find(_ hay: UnsafePointer<UInt8>, _ hayLen: Int, _ needle: UnsafePointer<UInt8>,
                             _ needleLen: Int, _ probe: Probe) -> UnsafePointer<UInt8>? {
        guard needleLen > 0, hayLen >= needleLen else { return nil }
        if probe.pairs { return findPair(hay, hayLen, needle, needleLen, probe) }
        let k = probe.first
        let byte = Int32(needle[k])
        var p = hay + k
        let last = hay + (hayLen - needleLen) + k
        while p <= last {
            guard let raw = memchr(p, byte, last - p + 1) else { return nil }
            let candidate = UnsafePointer(raw.assumingMemoryBound(to: UInt8.self)) - k
            if needleLen == 1 || memcmp(candidate, needle, needleLen) == 0 { return candidate }
            p = candidate + k + 1
        }
        return nil
    }

    private static let laneBits = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)

    /// First occurrence of `needle` (two bytes or more) in `hay`: sixteen starts are tested at once for
    /// the needle's bytes at `probe.first` and `probe.second`, and the rest is compared only where both match.
    private static func findPair(_ hay: UnsafePointer<UInt8>, _ hayLen: Int, _ needle: UnsafePointer<UInt8>,
                                 _ needleLen: Int, _ probe: Probe) -> UnsafePointer<UInt8>? {
        let lastStart = hayLen - needleLen
        let k1 = probe.first, k2 = probe.second
        let b1 = SIMD16<UInt8>(repeating: needle[k1]), b2 = SIMD16<UInt8>(repeating: needle[k2])
        let raw = UnsafeRawPointer(hay)
        var i = 0
        // Starts i...i+15 are all candidates, so both loads end inside `hay` (k1, k2 < needleLen).
        while i + 15 <= lastStart {
            let both = (raw.loadUnaligned(fromByteOffset: i + k1, as: SIMD16<UInt8>.self) .== b1)
                .& (raw.loadUnaligned(fromByteOffset: i + k2, as: SIMD16<UInt8>.self) .== b2)
            if any(both) {
                // The lanes that matched as bits, lowest lane first.
                let weighted = unsafeBitCast(both, to: SIMD16<UInt8>.self) & Self.laneBits
                var lanes = UInt16(weighted.lowHalf.wrappedSum()) | UInt16(weighted.highHalf.wrappedSum()) << 8
                while lanes != 0 {
                    let candidate = hay + i + lanes.trailingZeroBitCount
                    if memcmp(candidate, needle, needleLen) == 0 { return candidate }
                    lanes &= lanes - 1
                }
            }
            i += 16
        }
        while i <= lastStart {
            if hay[i + k1] == needle[k1] && hay[i + k2] == needle[k2] && memcmp(hay + i, needle, needleLen) == 0 { return hay + i }
            i += 1
        }
        return nil
    }

    /// Every occurrence of `needle` in `buffer`: each entry gets its best score, and entries seen
    /// for the first time are appended to `touched` (in entry order).
    private func scan(needle: [UInt8], in buffer: [UInt8], starts: [Int32], isText: Bool,
                      scores: inout [Int32], touched: inout [Int32]) {
        buffer.withUnsafeBufferPointer { buf in
            needle.withUnsafeBufferPointer { nd in
                starts.withUnsafeBufferPointer { st in
                    scores.withUnsafeMutableBufferPointer { sc in
                        guard let base = buf.baseAddress, let nbase = nd.baseAddress, nd.count > 0 else { return }
                        let probe = probe(needle, isText: isText)
                        var offset = 0
                        var entry = 0
                        // The field of the last hit, counted incrementally: hits come in ascending order.
                        var fieldEntry = -1, fieldPos = 0, field = 0
                        while offset < buf.count {
                            guard let hit = Self.find(base + offset, buf.count - offset, nbase, nd.count, probe) else { break }
                            let pos = hit - base
                            while Int(st[entry + 1]) <= pos { entry += 1 }
                            let start = Int(st[entry])
                            if isText {
                                if fieldEntry != entry { fieldEntry = entry; fieldPos = start; field = 0 }
                                field += Self.separators(base, from: fieldPos, to: pos); fieldPos = pos
                            }
                            let score = Int32(Self.score(buf, pos: pos, len: nd.count, start: start, field: isText ? field : nil))
                            if sc[entry] == 0 { touched.append(Int32(entry)) }
                            if score > sc[entry] { sc[entry] = score }
                            offset = pos + 1
                        }
                    }
                }
            }
        }
    }

    private func bestScore(_ needle: [UInt8], _ probe: Probe, entry: Int, buffer: [UInt8], starts: [Int32], isText: Bool) -> Int {
        let start = Int(starts[entry])
        let end = Int(starts[entry + 1])
        var best = 0
        buffer.withUnsafeBufferPointer { buf in
            needle.withUnsafeBufferPointer { nd in
                guard let base = buf.baseAddress, let nbase = nd.baseAddress, nd.count > 0 else { return }
                var offset = start
                var fieldPos = start, field = 0
                while offset < end {
                    guard let hit = Self.find(base + offset, end - offset, nbase, nd.count, probe) else { break }
                    let pos = hit - base
                    if isText { field += Self.separators(base, from: fieldPos, to: pos); fieldPos = pos }
                    best = max(best, Self.score(buf, pos: pos, len: nd.count, start: start, field: isText ? field : nil))
                    offset = pos + 1
                }
            }
        }
        return best
    }
}

/// The matches of the last query an index answered (under a lock: searches may come from any thread).
final class SearchMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var key = ""
    private var matches: [Int32] = []

    /// The previous matches when `key` narrows the previous query; nil otherwise.
    func candidates(for key: String) -> [Int32]? {
        lock.withLock { !self.key.isEmpty && key.hasPrefix(self.key) ? matches : nil }
    }

    func remember(_ key: String, _ matches: [Int32]) {
        lock.withLock {
            self.key = key
            self.matches = matches
        }
    }

    /// Forgets the last matches (the next query scans everything).
    func forget() { remember("", []) }
}

/// The last complete answer an index gave, by query key and sort (under a lock, like `SearchMemo`).
final class LastAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var key = ""
    private var value: (total: Int, hits: [SearchHit]) = (0, [])

    func answer(_ key: String) -> (total: Int, hits: [SearchHit])? { lock.withLock { key == self.key ? value : nil } }
    func store(_ key: String, _ answer: (total: Int, hits: [SearchHit])) { lock.withLock { self.key = key; value = answer } }
}

/// Ranked answers to one-character queries, by query key and sort (under a lock: searches and the start-up
/// work that fills it may run on any thread). Compact: 6 bytes per match.
final class FirstKeystrokeAnswers: @unchecked Sendable {
    struct Answer {
        let total: Int
        /// Entries best first, and their scores.
        let ranked: [Int32]
        let scores: [Int16]
        /// The matches in entry order, for narrowing; empty when too many to be used for it.
        let matches: [Int32]

        func hits(limit: Int?, ids: [Int64]) -> [SearchHit] {
            let count = min(limit ?? ranked.count, ranked.count)
            var hits: [SearchHit] = []
            hits.reserveCapacity(count)
            for i in 0..<count { hits.append(SearchHit(personId: ids[Int(ranked[i])], score: Int(scores[i]))) }
            return hits
        }
    }

    private let lock = NSLock()
    private var answers: [String: Answer] = [:]

    func answer(_ key: String) -> Answer? { lock.withLock { answers[key] } }
    func store(_ key: String, _ answer: Answer) { lock.withLock { answers[key] = answer } }
}

/// Holds the current index and brings it up to date when the contacts changed (any process).
final class SearchIndexCache: @unchecked Sendable {
    private let lock = NSLock()
    private var index: SearchIndex?

    /// The index for the contacts as they are now: the one held, else the one saved next to the database (a new
    /// process starts searching at once), either taking again the people changed since it was made; else a new one.
    /// An index read from the file and brought up to date, or built, is saved for the next process.
    func current(_ pool: DatabasePool, savedAt file: String? = nil) throws -> SearchIndex {
        let generation = try pool.read { db in try PersonRows.generation(db) }
        let held = lock.withLock { index }
        if let held, held.generation == generation { return held }
        if let held, let caughtUp = try pool.read({ db in try held.caughtUp(db) }) { return hold(caughtUp) }
        let stamp = try pool.read { db in try SearchIndexFile.Stamp(db) }
        // Another process may have saved an index newer than the one held (it searched after an import).
        if let file, let saved = SearchIndexFile.load(file, epoch: stamp.epoch) {
            if saved.generation == stamp.generation, saved.count == Int(stamp.count), (saved.ids.max() ?? 0) == stamp.maxId {
                return hold(saved)
            }
            if let caughtUp = try pool.read({ db in try saved.caughtUp(db) }) {
                SearchIndexFile.save(caughtUp, epoch: stamp.epoch, to: file)
                return hold(caughtUp)
            }
        }
        let fresh = try pool.read { db in try SearchIndex.build(db) }
        if let file { SearchIndexFile.save(fresh, epoch: stamp.epoch, to: file) }
        return hold(fresh)
    }

    private func hold(_ index: SearchIndex) -> SearchIndex {
        lock.withLock { self.index = index }
        return index
    }
}
