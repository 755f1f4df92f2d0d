import Foundation
import HeraldCore
import HeraldServices

/// The last few messages of one number's conversation, as a recipient's detail in Deliveries and a person's detail in
/// Contacts show them: one terminal-safe line each, "← 14:03  Who is this?" for a reply (● when not seen yet) and
/// "→ 14:05  Hi Ana… (delivered)" for what was sent.
nonisolated public struct ConversationExcerpt: Sendable, Hashable {
    /// E.164 with the plus.
    public var number: String
    /// The newest messages, oldest first (at most `ConversationExcerpt.size`).
    public var entries: [ConversationEntry]
    /// Messages of the conversation before these.
    public var earlier: Int
    /// Replies of the conversation not yet seen.
    public var unread: Int

    /// How many messages an excerpt keeps.
    public static let size = 4

    public init(_ detail: ConversationDetail, size: Int = ConversationExcerpt.size) {
        number = detail.number
        entries = Array(detail.entries.suffix(size))
        earlier = detail.entries.count - entries.count
        unread = detail.unread
        if detail.hasMore { earlier += 1 }
    }

    /// True when nothing was sent to or received from the number.
    public var isEmpty: Bool { entries.isEmpty }

    /// The heading: "Conversation (the last 4; 1 unread reply; 6 Replies has it whole)".
    public var heading: String {
        var parts: [String] = []
        if earlier > 0 { parts.append("the last \(entries.count)") }
        if unread > 0 { parts.append(counted(unread, "unread reply", "unread replies")) }
        parts.append("6 Replies has it whole")
        return "Conversation (" + parts.joined(separator: "; ") + ")"
    }

    /// One line per message, `width` columns at most, oldest first.
    public func lines(now: Date, width: Int = 76) -> [String] {
        entries.map { entry in
            let time = WallClock.timeOrDay(entry.at, now: now)
            let text = TerminalSafeText.sanitize(entry.text)
            let line: String
            switch entry.kind {
            case .reply: line = "← \(time)\(entry.seen ? "  " : " ●") \(text)"
            case .sent: line = "→ \(time)  \(text) (\(entry.status?.label ?? "sent"))"
            }
            return Self.truncate(line, to: width)
        }
    }

    /// `text` cut to `width` columns with an ellipsis.
    static func truncate(_ text: String, to width: Int) -> String {
        guard TerminalWidth.of(text) > width, width > 1 else { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = TerminalWidth.of(String(character))
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
