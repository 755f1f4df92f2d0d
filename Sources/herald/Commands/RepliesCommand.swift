import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald replies …`: the SMS replies people sent back, threaded per number, and answers to them.
struct RepliesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replies", abstract: "Read the replies people sent back, answer them, mark them seen.",
        discussion: """
            A conversation is everything one number sent and was sent: its replies and the invitations and answers \
            that went to it, in time order. A reply belongs to the person of the address book who has the number, and \
            to the latest invitation sent to that number before it. See docs/conversations.md.
            """,
        subcommands: [RepliesList.self, RepliesShow.self, RepliesSend.self, RepliesSeen.self])

    /// "Ana Horvat (+385911234567)", or the number alone when nobody in the book has it; terminal-safe.
    static func who(_ number: String, name: String?) -> String {
        guard let name else { return Output.safe(number) }
        return "\(Output.safe(name)) (\(Output.safe(number)))"
    }

    /// "2026-11-28 10:02".
    static func minute(_ date: Date) -> String {
        String(Output.iso(date).prefix(16)).replacingOccurrences(of: "T", with: " ")
    }

    /// A text on one line, terminal-safe.
    static func oneLine(_ text: String) -> String {
        Output.safe(text.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
