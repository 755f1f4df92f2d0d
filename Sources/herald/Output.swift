import ArgumentParser
import Foundation
import HeraldCore

/// Printing for people and for scripts: stderr messages, JSON, and terminal-safe text.
enum Output {
    /// Prints `message` to stderr and returns the exit code to throw. With `--json` on the command line the error is
    /// JSON too, for scripts: `{"error": {"message": …, "hint": …}}` (the hint when the message says what to do).
    static func failure(_ message: String, code: Int32 = 1) -> ExitCode {
        let text = TerminalSafeText.sanitize(message, singleLine: false)
        if CommandLine.arguments.contains("--json"), let json = try? json(ErrorJSON(error: .init(message: text, hint: hint(in: text)))) {
            FileHandle.standardError.write(Data((json + "\n").utf8))
        } else {
            FileHandle.standardError.write(Data("herald: \(text)\n".utf8))
        }
        return ExitCode(code)
    }

    struct ErrorJSON: Encodable {
        struct Body: Encodable {
            var message: String
            var hint: String?
        }
        var error: Body
    }

    /// Words a message's advice starts with ("…: set region in config.toml", "…; pass --region CC").
    static let adviceVerbs: Set<String> = ["set", "use", "pass", "give", "check", "import", "run", "chmod", "put", "try",
                                           "create", "add", "make", "copy", "start", "wait", "configure", "remove", "choose"]

    /// The advice at the end of a message: the last clause after ": ", "; " or " — " that starts with an imperative.
    static func hint(in message: String) -> String? {
        var best: String?
        for separator in [": ", "; ", " — ", ". "] {
            var rest = message[...]
            while let range = rest.range(of: separator) {
                let tail = rest[range.upperBound...]
                let word = tail.prefix { $0.isLetter }.lowercased()
                if adviceVerbs.contains(word), best.map({ tail.count < $0.count }) ?? true { best = String(tail) }
                rest = tail
            }
        }
        return best
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
    /// are written as `\u00XX` escapes like the C0 ones; so are the line separators and bidirectional overrides, which
    /// the terminal-safe `print` would otherwise drop from the data.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        guard text.unicodeScalars.contains(where: jsonEscaped) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if jsonEscaped(scalar) {
                escaped.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// What JSON may carry raw but a terminal must not get: DEL, C1, U+2028/U+2029 and the bidi controls.
    private static func jsonEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        print(try json(value))
    }
}
