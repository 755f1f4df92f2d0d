import Foundation

/// The MIME encodings an email needs: RFC 2047 encoded-words for headers and
/// quoted-printable (RFC 2045) for bodies.
enum MIMEEncoding {
    /// Whether `text` may stand in a header as it is: printable ASCII and spaces only.
    static func isPlainHeaderText(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || (0x21...0x7E).contains($0) }
    }

    /// RFC 2047 `B` encoded-words for `text`, split between characters (never inside a UTF-8
    /// sequence). Each word is at most 64 characters, so that even after a header name
    /// ("Subject: ") a word fits a 76-character line. Join them with folding whitespace.
    static func encodedWords(_ text: String) -> [String] {
        let prefix = "=?UTF-8?B?", suffix = "?="
        // 39 bytes of UTF-8 → 52 characters of base64 → 64 with the prefix and suffix.
        let maxBytes = 39
        var words: [String] = []
        var chunk: [UInt8] = []
        for char in text {
            let bytes = Array(String(char).utf8)
            if chunk.count + bytes.count > maxBytes, !chunk.isEmpty {
                words.append(prefix + Data(chunk).base64EncodedString() + suffix)
                chunk.removeAll()
            }
            chunk.append(contentsOf: bytes)
        }
        if !chunk.isEmpty || words.isEmpty {
            words.append(prefix + Data(chunk).base64EncodedString() + suffix)
        }
        return words
    }

    /// Joins header tokens with spaces, folding (CRLF + space) before a token that would take
    /// the line past 76 characters. `used` is what the line already holds ("Subject: ").
    static func fold(_ tokens: [String], used: Int) -> String {
        var out = ""
        var lineLength = used
        for (i, token) in tokens.enumerated() {
            if i == 0 {
                out += token
                lineLength += token.count
            } else if lineLength + 1 + token.count > 76 {
                out += "\r\n " + token
                lineLength = 1 + token.count
            } else {
                out += " " + token
                lineLength += 1 + token.count
            }
        }
        return out
    }

    /// Decodes a header value that may hold RFC 2047 `B` or `Q` encoded-words (UTF-8 or ASCII);
    /// whitespace between adjacent encoded-words is dropped, as the RFC says.
    static func decodeHeader(_ value: String) -> String {
        let unfolded = value.replacingOccurrences(of: "\r\n", with: "").replacingOccurrences(of: "\n", with: "")
        var result = ""
        var pendingSpace = ""
        var lastWasEncoded = false
        var rest = Substring(unfolded)
        while !rest.isEmpty {
            if rest.hasPrefix("=?"), let decoded = decodeWord(&rest) {
                if !lastWasEncoded { result += pendingSpace }
                pendingSpace = ""
                result += decoded
                lastWasEncoded = true
            } else if let ch = rest.first, ch == " " || ch == "\t" {
                pendingSpace.append(ch)
                rest = rest.dropFirst()
            } else if let ch = rest.first {
                result += pendingSpace
                pendingSpace = ""
                result.append(ch)
                rest = rest.dropFirst()
                lastWasEncoded = false
            }
        }
        return result + pendingSpace
    }

    private static func decodeWord(_ rest: inout Substring) -> String? {
        let parts = rest.dropFirst(2).split(separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3].hasPrefix("=") else { return nil }
        let charset = parts[0].lowercased(), encoding = parts[1].uppercased(), payload = parts[2]
        guard charset == "utf-8" || charset == "us-ascii" else { return nil }
        var bytes: [UInt8]
        switch encoding {
        case "B":
            guard let data = Data(base64Encoded: String(payload)) else { return nil }
            bytes = Array(data)
        case "Q":
            bytes = []
            var it = Array(payload.utf8)[...]
            while let b = it.first {
                it = it.dropFirst()
                if b == UInt8(ascii: "_") { bytes.append(0x20) }
                else if b == UInt8(ascii: "="), it.count >= 2,
                        let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(v); it = it.dropFirst(2)
                } else { bytes.append(b) }
            }
        default:
            return nil
        }
        let consumed = 2 + parts[0].count + 1 + parts[1].count + 1 + payload.count + 2
        rest = rest.dropFirst(consumed)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Quoted-printable body: lines end with `lineEnding`, encoded lines are at most 76
    /// characters, and no line, hard or soft-broken, is one mail programs treat specially ("." alone, "From ").
    static func quotedPrintable(_ text: String, lineEnding: String = "\r\n") -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var out: [String] = []
        for line in normalized.split(separator: "\n", omittingEmptySubsequences: false) {
            out.append(contentsOf: encodeLine(Array(line.utf8)))
        }
        return out.joined(separator: lineEnding)
    }

    /// One hard line, split into soft-broken pieces of at most 76 characters.
    private static func encodeLine(_ bytes: [UInt8]) -> [String] {
        var tokens: [String] = []
        for (i, b) in bytes.enumerated() {
            let isLast = i == bytes.count - 1
            let printable = (0x21...0x7E).contains(b) && b != UInt8(ascii: "=")
            let trailingSpace = (b == 0x20 || b == 0x09) && isLast
            if printable || ((b == 0x20 || b == 0x09) && !trailingSpace) {
                tokens.append(String(UnicodeScalar(b)))
            } else {
                tokens.append(String(format: "=%02X", b))
            }
        }
        // A line that is a lone "." ends input for sendmail without -i; "From " breaks mbox files. Both are checked
        // at every line start the soft breaks make, not only the hard line's: a break can fall just before either.
        var lines: [String] = []
        var current = ""
        var i = 0
        while i < tokens.count {
            var token = tokens[i]
            if current.isEmpty, token == "F", tokens[i...].starts(with: ["F", "r", "o", "m", " "]) { token = "=46" }
            if current.count + token.count > 75 {
                lines.append(current + "=")
                current = ""
                continue   // the token starts the next line: look at it again as a line start
            }
            current += token
            i += 1
        }
        // Only the last piece can be a lone ".": every other one ends with its soft break "=".
        lines.append(current == "." ? "=2E" : current)
        return lines
    }

    /// Decodes a quoted-printable body (for tests and for reading mail back).
    static func decodeQuotedPrintable(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var bytes: [UInt8] = []
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            var chars = Array(line.utf8)[...]
            var softBreak = false
            while let b = chars.first {
                chars = chars.dropFirst()
                if b == UInt8(ascii: "=") {
                    if chars.isEmpty { softBreak = true; break }
                    if chars.count >= 2, let v = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
                        bytes.append(v); chars = chars.dropFirst(2); continue
                    }
                }
                bytes.append(b)
            }
            if !softBreak && index < lines.count - 1 { bytes.append(0x0A) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
