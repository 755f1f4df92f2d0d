import Foundation
import HeraldCore
import HeraldServices

/// A person's detail in Contacts ends with the last messages of their conversation: what they answered from any of
/// their numbers and what was sent to them, read off the UI thread when the detail is read (and kept on screen
/// meanwhile), and again when one of their numbers replies.
extension ContactsViewModel {
    /// The key the reads run under: another person's detail cancels the read of the one before.
    static let conversationEffect = "contacts.conversation"

    /// Reads the conversation of the person open in the detail: every number of theirs, merged in time.
    func readConversation() {
        guard let conversations, let view = detail else { return }
        let numbers = Array(Set(view.numbers.compactMap(\.e164))).sorted().prefix(5)
        guard !numbers.isEmpty else { opened?.conversation = nil; return }
        let personId = view.personId
        context.effects.perform({ () async throws -> ConversationDetail in
            var entries: [ConversationEntry] = [], unread = 0, more = false
            for number in numbers {
                let thread = try await conversations.thread(number: number, limit: ConversationExcerpt.size)
                entries += thread.entries
                unread += thread.unread
                more = more || thread.hasMore
            }
            entries.sort { $0.at < $1.at }
            return ConversationDetail(number: numbers[numbers.startIndex], personId: personId, entries: entries, unread: unread,
                                      hasMore: more)
        }, supersedes: Self.conversationEffect) { [weak self] result in
            // A conversation that cannot be read leaves the detail as it was: the Replies pane says why.
            guard let self, case .success(let merged) = result, self.detail?.personId == personId else { return }
            self.opened?.conversation = merged.entries.isEmpty ? nil : ConversationExcerpt(merged)
        }
    }

    /// The lines the detail ends with: a blank line, the heading, one line per message; none without a conversation.
    public var conversationLines: [String] {
        guard let excerpt = opened?.conversation, !excerpt.isEmpty else { return [] }
        return ["", excerpt.heading] + excerpt.lines(now: context.clock.now()).map { "  " + $0 }
    }

    /// A reply (or seen marks) from one of the open person's numbers: their conversation is read again.
    func foldReplies(_ change: RepliesChange) -> Bool {
        guard let view = detail, view.numbers.contains(where: { $0.e164 == change.number }) else { return false }
        readConversation()
        return false
    }
}
