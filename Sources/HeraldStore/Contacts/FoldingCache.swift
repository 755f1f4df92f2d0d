import Foundation
import HeraldCore

/// Remembers folded and transliterated forms of the names seen during one import, so each
/// distinct non-ASCII name goes through Foundation and ICU once. Not shared between threads.
final class FoldingCache {
    private var folded: [String: String] = [:]
    private var searchForms: [String: String] = [:]
    /// Entries kept per table before it is emptied (an import of unique names stays bounded).
    private let limit: Int

    init(limit: Int = 200_000) { self.limit = limit }

    func fold(_ text: String) -> String {
        if FastText.isASCII(text) { return FastText.asciiLowercased(text) }
        if let hit = folded[text] { return hit }
        let value = TextFolding.fold(text)
        if folded.count >= limit { folded.removeAll(keepingCapacity: true) }
        folded[text] = value
        return value
    }

    func searchForm(_ text: String) -> String {
        if FastText.isASCII(text) { return FastText.asciiLowercased(text) }
        if let hit = searchForms[text] { return hit }
        let value = TextFolding.searchForm(text)
        if searchForms.count >= limit { searchForms.removeAll(keepingCapacity: true) }
        searchForms[text] = value
        return value
    }
}
