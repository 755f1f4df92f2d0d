import ArgumentParser
import Foundation
import HeraldCore

/// Printing for people and for scripts: stderr messages, JSON, and terminal-safe text.
enum Output {
    /// Prints `message` to stderr and returns the exit code to throw.
    static func failure(_ message: String, code: Int32 = 1) -> ExitCode {
        FileHandle.standardError.write(Data("herald: \(TerminalSafeText.sanitize(message, singleLine: false))\n".utf8))
        return ExitCode(code)
    }

    /// A line for people on stderr (not an error).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("herald: \(TerminalSafeText.sanitize(message))\n".utf8))
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("herald: warning: \(TerminalSafeText.sanitize(message))\n".utf8))
    }

    /// Outside text made safe for a terminal (no control characters or escape sequences).
    static func safe(_ text: String) -> String { TerminalSafeText.sanitize(text) }

    /// JSON of `value`; DEL and the C1 controls, which JSON may carry raw and a terminal may act on (U+009B is a CSI),
    /// are written as `\u00XX` escapes like the C0 ones.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        guard text.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        print(try json(value))
    }
}
