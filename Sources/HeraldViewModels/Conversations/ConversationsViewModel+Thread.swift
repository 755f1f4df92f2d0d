import Foundation
import HeraldCore
import HeraldServices

/// One conversation open in the Replies pane: its thread read off the UI thread (and again when a reply or a delivery
/// report of that number comes), marked seen when opened — never by a terminal that changes nothing, and never by a
/// reply arriving while it is open (a colleague may not have read it: `m` marks it).
extension ConversationsViewModel {
    /// The key thread reads run under: opening another thread cancels the read of the one before.
    static let threadEffect = "replies.thread"

    /// Opens the conversation under the cursor (Enter).
    public func openCurrent() {
        guard let row = current else { return }
        open(number: row.number)
    }

    /// Opens the thread of `number`; its unread replies are marked seen first (unless this terminal changes nothing),
    /// so the thread read after the mark shows them seen.
    public func open(number: String) {
        if openNumber != number { thread = nil }
        openNumber = number
        let marking = readOnlyReason == nil && (row(of: number)?.unread ?? 0) > 0
        let before = marking ? showSeen(number: number) : nil
        readThread(opening: true, markingSeen: before)
    }

    /// ctrl-r: the list, and the open thread, read again (nothing is marked seen by it).
    public func reloadAll() {
        reload()
        readThread()
    }

    /// Closes the open thread (and its editor); false when none was open.
    @discardableResult
    public func closeThread() -> Bool {
        guard openNumber != nil else { return false }
        openNumber = nil
        thread = nil
        isWriting = false
        isLoadingThread = false
        return true
    }

    /// The open thread's replies not yet seen.
    public var threadUnread: Int { thread?.unread ?? 0 }

    /// Reads the open thread again; a read under way is followed by one more. With `markingSeen` (the unread counts
    /// before the mark), the replies are marked seen first; a refused mark is undone with the reason.
    func readThread(opening: Bool = false, markingSeen before: SeenMark? = nil) {
        guard let number = openNumber else { return }
        if threadReading && !opening { threadAgain = true; return }
        threadReading = true
        isLoadingThread = thread == nil
        let service = self.service, marking = before != nil
        context.effects.perform({ () async throws -> (ConversationDetail, String?) in
            var refused: String?
            if marking {
                do { _ = try await service.markSeen(number: number) } catch { refused = userMessage(for: error) }
            }
            return (try await service.thread(number: number), refused)
        }, supersedes: Self.threadEffect) { [weak self] result in
            guard let self else { return }
            self.threadReading = false
            defer { if self.threadAgain { self.threadAgain = false; self.readThread() } }
            if case .success(let (_, refused?)) = result, let before { self.undoSeen(before, number: number, reason: refused) }
            guard self.openNumber == number else { return }
            self.isLoadingThread = false
            switch result {
            case .success(let (detail, _)):
                self.thread = detail
            case .failure(let error):
                if self.thread == nil {
                    self.openNumber = nil
                    self.notify("could not read the conversation with \(number): " + userMessage(for: error), level: .error)
                } else {
                    self.notify("could not read the conversation again: " + userMessage(for: error), level: .warning)
                }
            }
        }
    }

    /// A reply of the open thread's number, shown at once at the end of the thread (the read that follows confirms it).
    func foldIntoThread(_ reply: ConversationEntry) {
        guard var detail = thread, !detail.entries.contains(where: { $0.kind == reply.kind && $0.messageId == reply.messageId }) else { return }
        detail.entries.append(reply)
        detail.entries.sort { $0.at < $1.at }
        if !reply.seen { detail.unread += 1 }
        thread = detail
    }

    /// The open thread's replies, as seen (a mark made here or told of by the platform).
    func markThreadRead() {
        guard var detail = thread else { return }
        for i in detail.entries.indices where detail.entries[i].kind == .reply { detail.entries[i].seen = true }
        detail.unread = 0
        thread = detail
    }

    /// `m`: marks the replies of the open thread (or of the conversation under the cursor) seen.
    public func markCurrentSeen() {
        guard let number = openNumber ?? current?.number else { return }
        let unread = openNumber == number ? max(threadUnread, row(of: number)?.unread ?? 0) : row(of: number)?.unread ?? 0
        guard unread > 0 else { notify("every reply of this conversation is already seen", level: .info); return }
        markSeen(number: number)
    }

    /// Marks the replies of `number` seen: shown at once (its count, the total, the open thread), undone with the reason
    /// when the platform refuses.
    func markSeen(number: String) {
        guard readOnlyReason == nil else { return }
        let before = showSeen(number: number)
        let service = self.service
        context.effects.perform({ try await service.markSeen(number: number) }) { [weak self] result in
            guard let self, case .failure(let error) = result else { return }
            self.undoSeen(before, number: number, reason: userMessage(for: error))
        }
    }

    /// Shows the replies of `number` seen; answers what was shown before.
    func showSeen(number: String) -> SeenMark {
        let before = SeenMark(rowUnread: row(of: number)?.unread ?? 0, thread: openNumber == number ? thread : nil)
        if let at = rows.firstIndex(where: { $0.number == number }) { rows[at].unread = 0 }
        if let total = unreadTotal { setUnreadTotal(total - before.rowUnread) }
        if openNumber == number { markThreadRead() }
        return before
    }

    /// A refused mark: the counts come back as they were, and the reason is told.
    func undoSeen(_ before: SeenMark, number: String, reason: String) {
        if let at = rows.firstIndex(where: { $0.number == number }), rows[at].unread == 0 { rows[at].unread = before.rowUnread }
        if let total = unreadTotal { setUnreadTotal(total + before.rowUnread) }
        if let thread = before.thread, openNumber == number, self.thread?.unread == 0 { self.thread = thread }
        notify("could not mark the replies seen: " + reason, level: .error)
    }
}

/// What a conversation showed before its replies were marked seen here (to undo a refused mark).
struct SeenMark {
    var rowUnread: Int
    var thread: ConversationDetail?
}
