import Foundation
import HeraldAPI
import HeraldCore

/// A destination's own text (`Destination.text`, `SendInvitationBody.asWritten`): its checks, and whether it is the
/// application's message with the client's personal fields filled in (what an application with message editing off
/// still lets a client send).
extension PlatformEngine {
    /// Why this destination's own text cannot be sent, nil when it can. A refusal rejects this destination alone.
    /// An email's own text may be as long as an email's (`email.text`), an SMS's is bounded by `maxTextLength`.
    static func textProblem(_ d: SendInvitationBody.Destination, asWritten: Bool, email: Bool = false, editingAllowed: Bool,
                            message: MessageRecord) -> String? {
        guard let text = d.text else { return asWritten ? "text: must be given when the request is asWritten" : nil }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "text: must not be empty" }
        let limit = email ? Self.maxEmailTextLength : SendInvitationBody.Destination.maxTextLength
        if let problem = WireInput.textProblem(text, maxLength: limit) {
            return "text: \(problem)"
        }
        // An answer is no invitation: it says what its writer wrote. An invitation's own text, with editing off, must
        // be the message itself with only the fields a client fills (a person's name, team…) filled.
        if !asWritten, !editingAllowed, !isFilledIn(text, of: message.template) {
            return "text: message editing is off for this application, and this text is not the message with its fields filled"
        }
        return nil
    }

    /// Whether `text` is `template` with each of its fields other than the five client fields replaced by some text
    /// (the link placeholder and the client fields kept as written). A field that came out empty may take the space
    /// before it along, as `MessageTemplate.render` does. A match of literal runs around wildcards, leftmost first:
    /// linear in the text, whatever it holds.
    static func isFilledIn(_ text: String, of template: MessageTemplate) -> Bool {
        var runs: [String] = [""]
        var at = template.text.startIndex
        for placeholder in template.placeholders {
            runs[runs.count - 1] += template.text[at..<placeholder.range.lowerBound]
            at = placeholder.range.upperBound
            switch placeholder.kind {
            case .field(let key) where ClientField(rawValue: key) == nil:
                if runs[runs.count - 1].hasSuffix(" ") { runs[runs.count - 1].removeLast() }
                runs.append("")
            default:
                runs[runs.count - 1] += template.text[placeholder.range]
            }
        }
        runs[runs.count - 1] += template.text[at...]
        guard runs.count > 1 else { return text == runs[0] }
        guard let first = runs.first, let last = runs.last, text.hasPrefix(first) else { return false }
        var rest = text.dropFirst(first.count)
        for run in runs.dropFirst().dropLast() where !run.isEmpty {
            guard let found = rest.range(of: run) else { return false }
            rest = rest[found.upperBound...]
        }
        return rest.hasSuffix(last)
    }
}
