import Foundation
import HeraldCore
import HeraldServices

/// A recipient's detail in Deliveries shows the last messages of that number's conversation (what it answered, what
/// was answered back), read off the UI thread when the detail opens or follows the cursor, and again when a reply of
/// that number comes.
extension DeliveriesViewModel {
    /// The key the reads run under: the detail moving to another recipient cancels the read of the one before.
    static let conversationEffect = "deliveries.conversation"

    /// Reads the conversation of the recipient shown in detail (nothing when the detail closed or shows an address).
    func readDetailConversation() {
        detailConversation = nil
        guard let conversations, let number = detail?.number, number.hasPrefix("+") else { return }
        context.effects.perform({ try await conversations.thread(number: number, limit: ConversationExcerpt.size) },
                                supersedes: Self.conversationEffect) { [weak self] result in
            // A conversation that cannot be read leaves the detail as it was: the Replies pane says why.
            guard let self, case .success(let detail) = result, self.detail?.number == number else { return }
            self.detailConversation = ConversationExcerpt(detail)
        }
    }

    /// A reply (or seen marks) of the number shown in detail: its conversation is read again.
    func foldReplies(_ change: RepliesChange) -> Bool {
        guard let number = detail?.number, number == change.number else { return false }
        let shown = detailConversation
        readDetailConversation()
        detailConversation = shown            // kept on screen until the new read comes
        return false
    }
}
