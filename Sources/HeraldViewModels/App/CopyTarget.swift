import Foundation
import HeraldCore
import HeraldServices

/// What a pane's copy key (`c`/`y`) copies from where the cursor is: the text, and a few words naming it.
nonisolated public struct CopyTarget: Sendable, Hashable {
    public let text: String
    public let what: String

    public init(text: String, what: String) {
        self.text = text
        self.what = what
    }


    /// The first http(s) link in a text, nil when it has none.
    public static func firstLink(in text: String) -> String? {
        guard let detector = try? NSRegularExpression(pattern: #"https?://[^\s<>"')\]]+"#) else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = detector.firstMatch(in: text, range: range), let r = Range(match.range, in: text) else { return nil }
        var link = String(text[r])
        while let last = link.last, ".,;:!?".contains(last) { link.removeLast() }
        return link
    }
}
