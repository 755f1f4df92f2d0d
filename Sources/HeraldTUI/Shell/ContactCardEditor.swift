import Foundation
import HeraldCore

/// A contact edited as a card in the person's own editor (`contacts edit`, and `a` and `e` in Contacts). A card with
/// problems opens again with them listed on top, until it reads, is emptied (cancelled) or is saved unchanged (refused,
/// with its problems, so the caller keeps it and says what is wrong).
public enum ContactCardEditor {
    public enum Outcome {
        case cancelled
        case edited(ContactDraft)
        case refused(card: String, problems: ContactDraft.ProblemList)
    }

    public static func edit(_ card: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                            suspend: (() -> Void) -> Void) throws(ExternalEditor.Failure) -> Outcome {
        var shown = card
        while true {
            let edited = try ExternalEditor.edit(shown, subject: "contact", environment: environment, suspend: suspend)
            if edited.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return .cancelled }
            let body = ContactDraft.withoutProblems(edited)
            do throws(ContactDraft.ProblemList) {
                return .edited(try ContactDraft.parse(cardText: body))
            } catch {
                // Saved as it was shown: the person gave up on it.
                if edited == shown || edited + "\n" == shown { return .refused(card: body, problems: error) }
                shown = ContactDraft.reopened(body, problems: error)
            }
        }
    }

    /// Keeps a refused card in the temporary folder so nothing typed is lost: where it is, or why it could not be kept.
    public static func keep(_ card: String, name: String) -> Result<URL, any Error> {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(name)-unsaved.txt")
        return Result { try Data(card.utf8).write(to: url, options: .atomic); return url }
    }
}
