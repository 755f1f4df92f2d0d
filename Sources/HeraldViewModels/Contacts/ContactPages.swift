import HeraldCore
import HeraldServices

/// Paging the contacts list: the rows read so far, the window the screen shows, which people to read for it next,
/// and which answers still count. No I/O and no effects: `ContactsViewModel` runs the reads it plans.
///
/// Rows are kept by their index in the list (the suggestions first, then the listing's people). Every read carries
/// the generation of the listing it was asked for, so an answer to an older search is dropped.
struct ContactPages {
    /// Rows read so far, by index in the list; emptied past `limit` (a long scroll keeps memory flat).
    private(set) var rows: [Int: ContactRow] = [:]
    /// Bumped for every new listing.
    private(set) var generation = 0
    /// The window being read for the current generation, if any.
    private(set) var reading: Range<Int>?
    /// A window to read once the read in flight is back.
    var wanted: Range<Int>?
    /// The ledger changed while rows were being read: read the window shown again once they are in.
    var refreshAfterRead = false
    /// The window last drawn, read again when the ledger or the contacts change.
    var shown: Range<Int> = 0..<0

    static let limit = 4_000

    subscript(index: Int) -> ContactRow? { rows[index] }

    /// A new listing is being read: answers for older ones no longer count. Returns its generation.
    mutating func startListing() -> Int {
        generation += 1
        reading = nil
        return generation
    }

    /// The people of the listing to read so that `range` (list indexes) shows: the range and `ahead` rows either side
    /// (fewer before anything was read, so a keystroke's first screen comes quickly), less the rows at either end read
    /// already. Nil when nothing is to be read now: it is all there, or a read is in flight (then `range` is read once
    /// that one is back).
    mutating func plan(_ range: Range<Int>, suggestions: Int, total: Int, readAhead: Int, firstReadAhead: Int) -> Range<Int>? {
        if let reading, reading.contains(range.lowerBound), reading.contains(range.upperBound - 1) { return nil }
        guard reading == nil else { wanted = range; return nil }
        let ahead = rows.isEmpty ? min(readAhead, firstReadAhead) : readAhead
        var start = max(0, range.lowerBound - suggestions - ahead)
        var end = min(total, range.upperBound - suggestions + ahead)
        while start < end, rows[start + suggestions] != nil { start += 1 }
        while start < end, rows[end - 1 + suggestions] != nil { end -= 1 }
        guard start < end else { return nil }
        reading = range
        return start..<end
    }

    /// The people of the window shown, to read again (their invitation states changed); nil while a read is in flight
    /// (the window is read again once it is back) or when nothing is shown.
    mutating func planRefresh(suggestions: Int, total: Int) -> Range<Int>? {
        guard !shown.isEmpty else { return nil }
        guard reading == nil else { refreshAfterRead = true; return nil }
        let start = max(0, shown.lowerBound - suggestions), end = min(total, shown.upperBound - suggestions)
        guard start < end else { return nil }
        reading = shown
        return start..<end
    }

    /// A read for `generation` came back: false when a newer listing made it stale.
    mutating func finishRead(generation: Int) -> Bool {
        guard generation == self.generation else { return false }
        reading = nil
        return true
    }

    /// Stores people read from listing index `from` as rows (`offset`: the suggestions above them). Entries before
    /// `lower` were read only to know whether the first kept one starts a section.
    mutating func store(_ entries: [ContactEntry], from: Int, keepingFrom lower: Int, offset: Int,
                        section: (Person) -> String?, row: (ContactEntry, _ section: String?, _ startsSection: Bool) -> ContactRow) {
        if rows.count > Self.limit { rows = [:] }
        var previous: String?
        for (i, entry) in entries.enumerated() {
            let index = from + i
            let current = section(entry.person)
            defer { previous = current }
            guard index >= lower else { continue }
            rows[index + offset] = row(entry, current, index == 0 || previous != current)
        }
    }

    /// Forgets every row (a new listing is installed).
    mutating func clear() { rows = [:] }

    /// Moves every row by `delta` (the suggestions above them changed).
    mutating func shift(by delta: Int) {
        rows = Dictionary(uniqueKeysWithValues: rows.map { ($0.key + delta, $0.value) })
    }
}
