import Foundation
import Logging

/// Edits a text (a message, a contact's card) in the person's own editor (`$VISUAL`, `$EDITOR`, else `vi`) on a temporary file,
/// with the terminal handed over for the time it runs.
public enum ExternalEditor {
    /// Why the outside edit did not change the text.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The editor command: `$VISUAL`, then `$EDITOR`, then `vi`.
    public static func command(environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Writes `text` to a temporary file, runs the editor on it inside `suspend` (which gives the
    /// terminal to the editor and takes it back), and returns the file's text (one final newline dropped).
    /// `subject` names what is edited in the file's name and in every failure ("message", "contact").
    public static func edit(_ text: String, subject: String = "message", environment: [String: String] = ProcessInfo.processInfo.environment,
                            suspend: (() -> Void) -> Void) throws(Failure) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(subject)-\(UUID().uuidString).txt")
        do { try Data(text.utf8).write(to: file, options: [.atomic]) } catch {
            throw Failure(description: "cannot write the temporary file \(file.path): \(error.localizedDescription)")
        }
        defer {
            // The text may hold a person's name: a copy left in the temporary folder is worth a line in the log.
            do { if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) } } catch {
                Logger(label: "herald.editor").warning("could not remove the edited \(subject)'s temporary file", metadata: [
                    "file": "\(file.path)", "cause": "\(error.localizedDescription)",
                ])
            }
        }
        let editor = command(environment: environment)
        var outcome: Result<Int32, ForegroundCommand.Failure> = .failure(.init(description: "the editor did not run"))
        // The command may carry arguments ("code -w"); the file name is passed as $1, never spliced in.
        suspend {
            do throws(ForegroundCommand.Failure) {
                outcome = .success(try ForegroundCommand.run(["/bin/sh", "-c", editor + " \"$1\"", "herald-editor", file.path],
                                                             environment: environment))
            } catch { outcome = .failure(error) }
        }
        let status: Int32
        switch outcome {
        case .success(let s): status = s
        case .failure(let failure): throw Failure(description: failure.description)
        }
        guard status == 0 else {
            throw Failure(description: "\(editor) exited with status \(status); the \(subject) was not changed (set $EDITOR to your editor)")
        }
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw Failure(description: "cannot read the edited file \(file.path) (\(error.localizedDescription)); the \(subject) was not changed")
        }
        guard let edited = String(data: data, encoding: .utf8) else {
            throw Failure(description: "the edited file is not UTF-8 text; the \(subject) was not changed")
        }
        return edited.hasSuffix("\n") ? String(edited.dropLast()) : edited
    }
}
