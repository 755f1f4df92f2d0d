import Foundation

/// Where a search query shows in a name: grapheme ranges, case- and diacritic-insensitive,
/// each word of the query on its own (the same folding the store's search uses).
nonisolated public enum SearchHighlight {
    public static func ranges(of query: String, in text: String) -> [Range<Int>] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init).filter { !$0.isEmpty }
        guard !words.isEmpty, !text.isEmpty else { return [] }
        var result: [Range<Int>] = []
        for word in words {
            var searchStart = text.startIndex
            while searchStart < text.endIndex,
                  let found = text.range(of: word, options: [.caseInsensitive, .diacriticInsensitive], range: searchStart..<text.endIndex) {
                let lower = text.distance(from: text.startIndex, to: found.lowerBound)
                let upper = text.distance(from: text.startIndex, to: found.upperBound)
                if upper > lower { result.append(lower..<upper) }
                searchStart = found.upperBound > found.lowerBound ? found.upperBound : text.index(after: found.lowerBound)
            }
        }
        return merge(result)
    }

    static func merge(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}
