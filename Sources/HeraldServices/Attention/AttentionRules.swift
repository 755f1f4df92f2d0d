import Foundation
import HeraldCore
import HeraldStore

/// The pure half of attention: which notices a bulk's tally or an inbox's newest messages call for. Whether one was
/// already given is not decided here (`NoticeClaims` knows, across processes); these rules only say what is true now.
public enum AttentionRules {
    /// The notices `tally` calls for: settled (no recipient can change any more, or polling gave up on those that
    /// could, and not all were taken back), and failures at or over `threshold` (none when `threshold` is nil).
    public static func bulkNotices(_ tally: BulkTally, threshold: FailureThreshold?, at: Date) -> [AttentionNotice] {
        var out: [AttentionNotice] = []
        let name = "bulk \(tally.bulkId.prefix(8))"
        if let threshold, threshold.isReached(failed: tally.failed, recipients: tally.recipients) {
            out.append(AttentionNotice(kind: .bulkFailures, subject: tally.bulkId,
                                       title: "\(name): \(counted(tally.failed, "recipient")) failed",
                                       body: "\(percent(tally.failed, of: tally.recipients)) of \(tally.recipients), over the threshold of \(threshold)",
                                       at: at))
        }
        if tally.recipients > 0, tally.open == 0 || !tally.polled, tally.cancelled < tally.recipients {
            var parts = ["\(tally.invited) invited"]
            if tally.failed > 0 { parts.append("\(tally.failed) failed") }
            if tally.cancelled > 0 { parts.append("\(tally.cancelled) cancelled") }
            let other = tally.recipients - tally.invited - tally.failed - tally.cancelled
            if other > 0 { parts.append("\(other) other") }
            if tally.open > 0 { parts.append("\(tally.open) never confirmed (polling ended)") }
            out.append(AttentionNotice(kind: .bulkSettled, subject: tally.bulkId, title: "\(name) settled",
                                       body: "\(counted(tally.recipients, "recipient")): " + parts.joined(separator: ", "), at: at))
        }
        return out
    }

    /// The messages of `messages` that are news since `baseline` (when the inbox was first followed): sent since,
    /// not seen, not silent. Oldest first.
    public static func newInboxMessages(_ messages: [InboxMessage], since baseline: Date) -> [InboxMessage] {
        messages.filter { !$0.seen && !$0.silent && $0.sendDateTime >= baseline }
            .sorted { $0.sendDateTime != $1.sendDateTime ? $0.sendDateTime < $1.sendDateTime : $0.messageId < $1.messageId }
    }

    /// The one notice for messages that arrived in `user`'s inbox (newest last); nil for none.
    public static func inboxNotice(user: String, arrived: [InboxMessage], at: Date) -> AttentionNotice? {
        guard let newest = arrived.last else { return nil }
        let what = newest.title.flatMap { $0.isEmpty ? nil : $0 } ?? newest.body
        let firstLine = String(what.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
        let title = arrived.count == 1 ? "new message for \(user)" : "\(arrived.count) new messages for \(user)"
        return AttentionNotice(kind: .inboxMessage, subject: user, title: title, body: String(firstLine.prefix(120)), at: at)
    }

    /// The notice for a reply that arrived ("reply from Ana Horvat: yes, see you there"); nil when the change is only
    /// seen marks. Its subject is the number and the reply's id, so each reply is announced once.
    public static func replyNotice(_ change: RepliesChange, at: Date) -> AttentionNotice? {
        guard let reply = change.reply, reply.kind == .reply, !reply.seen else { return nil }
        let firstLine = String(reply.text.split(whereSeparator: \.isNewline).first ?? "").trimmingCharacters(in: .whitespaces)
        let body = change.optedOut ? "\(firstLine.prefix(100)) (opted out)" : String(firstLine.prefix(120))
        return AttentionNotice(kind: .reply, subject: "\(change.number)/\(reply.messageId)",
                               title: "reply from \(change.name ?? change.number)", body: body, at: at)
    }

    /// "12%" (whole percent, "<1%" for a few in many).
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0%" }
        let share = Double(part) * 100 / Double(whole)
        if share > 0 && share < 1 { return "<1%" }
        return "\(Int(share.rounded()))%"
    }
}
