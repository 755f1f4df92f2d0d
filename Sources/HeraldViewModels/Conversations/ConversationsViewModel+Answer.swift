import Foundation
import HeraldCore
import HeraldServices

/// Answering a conversation (`r`): a one-off SMS to that number, written in an editor with the segment meter and the
/// sender's warning, asked about once, then handed to the ledger as every send is (queued and journaled first, the
/// undo window's countdown in the status line, quiet hours and opt-outs applied by the service).
extension ConversationsViewModel {
    /// The longest answer the platform takes (one destination's own text).
    public static let answerLimit = 1600

    /// `r`: opens the editor for the open thread's number (or the conversation under the cursor); an answer begun to
    /// the same number before goes on where it was left.
    public func beginAnswer() {
        if let reason = readOnlyReason { notify(reason, level: .warning); return }
        guard let number = openNumber ?? current?.number else { notify("no conversation to answer yet", level: .info); return }
        if draft?.number != number {
            let name = (thread?.number == number ? thread?.name : nil) ?? row(of: number)?.name
            draft = AnswerDraft(number: number, name: name.map { TerminalSafeText.sanitize($0) })
        }
        if openNumber != number { open(number: number) }
        isWriting = true
    }

    /// The editor's text, as typed.
    public func setAnswerText(_ text: String) { draft?.text = text }

    /// Leaves the editor; the text is kept for the next `r` to this number.
    public func stopWriting() { isWriting = false }

    /// What the answer weighs as an SMS (encoding, segments, what is left in the part).
    public var answerMeasurement: SMSMeasurement { SMSMeter.measure(draft?.text ?? "") }

    /// "GSM-7 · 1 SMS · 34 chars · 126 left" for the line under the editor.
    public var meterLine: String {
        let m = answerMeasurement
        return "\(m.encoding.rawValue) · \(counted(m.segments, "SMS", "SMS")) · \(m.characters) chars · \(m.unitsLeftInSegment) left"
    }

    /// What is wrong with the answer as written; nil when it can go.
    public var answerProblem: String? {
        let text = (draft?.text ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return "nothing to send: write the answer first" }
        let length = draft?.text.count ?? 0
        if length > Self.answerLimit { return "the answer is \(length) characters; an answer takes at most \(Self.answerLimit)" }
        return nil
    }

    /// ctrl-s in the editor: the question before the answer leaves (or why it cannot).
    public func requestAnswerConfirmation() {
        if let reason = readOnlyReason { notify(reason, level: .warning); return }
        guard let draft else { return }
        if let problem = answerProblem { notify(problem, level: .warning); return }
        guard !isSending else { notify("an answer is already on its way", level: .info); return }
        let m = answerMeasurement
        var lines = ["From: " + TerminalSafeText.sanitize(sender.label)]
        if let warning = sender.warning { lines.append("⚠ " + TerminalSafeText.sanitize(warning)) }
        let text = TerminalSafeText.sanitize(draft.text)
        lines.append("“\(text)”")
        lines.append("\(counted(m.segments, "SMS", "SMS")) (\(m.encoding.rawValue), \(m.characters) characters), as written: no link added")
        lines.append("Through the ledger: quiet hours and opt-outs apply; the undo window lets you take it back")
        isWriting = false
        confirmation = AnswerConfirmation(draft: draft, title: "Answer \(draft.recipient)?", lines: lines)
    }

    /// Drops the question; the editor opens again with the text.
    public func cancelAnswer() {
        guard confirmation != nil else { return }
        confirmation = nil
        isWriting = true
    }

    /// Sends the answer the question was about. The thread shows it once the ledger has it; the toast says how it
    /// went (held for the undo window, refused and why).
    public func confirmAnswer() {
        guard let asked = confirmation, !isSending else { return }
        confirmation = nil
        isSending = true
        let service = self.service, number = asked.draft.number, text = asked.draft.text
        context.run({ try await service.answer(number: number, text: text) }, for: self, failure: "not sent",
                    finally: { $0.isSending = false }) { vm, result in
            vm.answered(result, to: asked.draft)
        }
    }

    /// What the send answered: the draft goes, the thread is read again, a toast says what became of it.
    func answered(_ result: InviteResult, to sent: AnswerDraft) {
        let refused = result.recipients.filter(\.status.isImpossible)
        if result.recipients.isEmpty || !refused.isEmpty {
            let reasons = Array(Set(refused.compactMap(\.reason) + result.skipped.map(\.reason))).sorted().joined(separator: "; ")
            notify("the answer to \(sent.recipient) was not sent" + (reasons.isEmpty ? "" : ": " + reasons), level: .warning)
            if draft?.number == sent.number { isWriting = true }     // the text stays, to change or send again
        } else {
            if draft?.number == sent.number { draft = nil }
            let when = result.sendAt.map { ", held until \(WallClock.timeOrDay($0, now: context.clock.now()))" } ?? ""
            notify("answer sent to \(sent.recipient)\(when)", level: .success)
        }
        if openNumber == sent.number { readThread() }
        reload()
    }
}
