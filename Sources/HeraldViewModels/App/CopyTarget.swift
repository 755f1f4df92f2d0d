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

    /// The OSC 52 bytes that put `target` on the clipboard, and the toast that says what went where (and, inside
    /// tmux, what tmux needs to pass it on); nil bytes when there is nothing to copy or it is too large (the toast
    /// says why).
    public static func bytes(for target: CopyTarget?,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> (bytes: [UInt8]?, toast: (ToastLevel, String)) {
        guard let target, !target.text.isEmpty else { return (nil, (.info, "nothing to copy here")) }
        do {
            let bytes = try Clipboard.osc52Bytes(for: target.text)
            let way = (environment["TMUX"] ?? "").isEmpty ? "through the terminal (OSC 52)"
                : "through the terminal (OSC 52; tmux passes it on with set-clipboard on)"
            return (bytes, (.success, "copied the \(target.what) \(way): \(TerminalSafeText.sanitize(target.text))"))
        } catch {
            return (nil, (.error, userMessage(for: error)))
        }
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
