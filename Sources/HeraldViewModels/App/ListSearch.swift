import Foundation

/// `/` search in a list that keeps every row (Deliveries, Inbox): rows are not filtered; the cursor jumps to
/// a match, and `n` / `N` go to the next or previous one, wrapping around.
nonisolated public struct ListSearch: Sendable, Hashable {
    public private(set) var query = ""

    public init() {}

    public mutating func set(_ query: String) { self.query = query }

    /// Whether `text` holds the query, ignoring case and accents; never for an empty query.
    public func matches(_ text: String) -> Bool {
        !query.isEmpty && text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// The first matching row from `start` on (including it) going forward, or before it going backward,
    /// wrapping around; nil when no row of `count` matches.
    public func find(from start: Int, count: Int, backward: Bool = false, text: (Int) -> String) -> Int? {
        guard !query.isEmpty, count > 0 else { return nil }
        for step in 0..<count {
            let i = backward ? ((start - step) % count + count) % count : (start + step) % count
            if matches(text(i)) { return i }
        }
        return nil
    }

    /// How many of `count` rows match.
    public func count(_ count: Int, text: (Int) -> String) -> Int {
        query.isEmpty ? 0 : (0..<count).filter { matches(text($0)) }.count
    }
}
