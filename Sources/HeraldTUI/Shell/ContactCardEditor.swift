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
    /// A new file of a name no one can guess, readable by this user alone (mkstemps, mode 0600): the card holds a
    /// person's details, and a shared /tmp lets anyone put a file or a link at a predictable name first.
    public static func keep(_ card: String, name: String) -> Result<URL, any Error> {
        let suffix = "-unsaved.txt"
        let safeName = String(name.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }.map(Character.init))
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(safeName)-XXXXXX\(suffix)").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        let url = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        return Result {
            try handle.write(contentsOf: Data(card.utf8))
            try handle.close()
            return url
        }
    }
}
