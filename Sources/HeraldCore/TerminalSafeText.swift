/// Makes text that came from outside (names, messages, inbox bodies) safe to put on a terminal.
///
/// Removes C0 and C1 control characters, DEL, whole escape sequences (7-bit `ESC …` and 8-bit
/// CSI/OSC/DCS/SOS/PM/APC, terminated or not) and bidirectional override characters. Tabs and
/// line breaks become one space in single-line text; in multi-line text line breaks become `\n`
/// and tabs a space. Every printable character (CJK, emoji, combining marks) is kept.
public enum TerminalSafeText {
    /// Returns `text` with nothing left that a terminal would interpret.
    /// - Parameter singleLine: when true (the default), line breaks become spaces too.
    public static func sanitize(_ text: String, singleLine: Bool = true) -> String {
        if isAlreadySafe(text, singleLine: singleLine) { return text }
        return rewrite(text, singleLine: singleLine)
    }

    /// True when `text` needs no change (the fast path taken for almost every name).
    public static func isAlreadySafe(_ text: String, singleLine: Bool = true) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var asciiOnly = true
        while let byte = utf8.next() {
            if byte < 0x20 {
                if byte == 0x0A && !singleLine { continue }
                return false
            }
            if byte == 0x7F { return false }
            if byte >= 0x80 { asciiOnly = false; break }
        }
        if asciiOnly { return true }
        for scalar in text.unicodeScalars where needsAction(scalar, singleLine: singleLine) {
            return false
        }
        return true
    }

    @inline(__always)
    private static func needsAction(_ scalar: Unicode.Scalar, singleLine: Bool) -> Bool {
        let v = scalar.value
        if v < 0x20 { return !(v == 0x0A && !singleLine) }
        if v < 0x7F { return false }
        if v <= 0x9F { return true }              // DEL and C1
        if v == 0x2028 || v == 0x2029 { return true }
        return isBidiControl(v)
    }

    @inline(__always)
    private static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    private enum State {
        case text
        case escape            // after ESC
        case escapeIntermediate // ESC followed by 0x20–0x2F bytes
        case csi               // inside a control sequence, until a final byte 0x40–0x7E
        case string            // OSC/DCS/SOS/PM/APC body, until BEL or ST
        case stringEscape      // ESC seen inside a string (ST is ESC \)
    }

    private static func rewrite(_ text: String, singleLine: Bool) -> String {
        var out = String.UnicodeScalarView()
        var state = State.text
        var previousWasCR = false
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            let v = scalar.value
            i += 1
            switch state {
            case .text:
                break
            case .escape:
                switch v {
                case 0x5B: state = .csi                                   // ESC [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string        // ESC ] P X ^ _
                case 0x20...0x2F: state = .escapeIntermediate
                case 0x30...0x7E: state = .text                           // two-byte sequence done
                default:
                    state = .text; i -= 1                                 // not a sequence: reprocess
                }
                continue
            case .escapeIntermediate:
                switch v {
                case 0x20...0x2F: break
                case 0x30...0x7E: state = .text
                default: state = .text; i -= 1
                }
                continue
            case .csi:
                switch v {
                case 0x20...0x3F: break                                   // parameters, intermediates
                case 0x40...0x7E: state = .text                           // final byte
                default: state = .text; i -= 1                            // malformed: end it here
                }
                continue
            case .string:
                if v == 0x07 || v == 0x9C { state = .text } else if v == 0x1B { state = .stringEscape }
                continue
            case .stringEscape:
                state = v == 0x5C ? .text : (v == 0x1B ? .stringEscape : .string)
                continue
            }

            // Plain text.
            let wasCR = previousWasCR
            previousWasCR = false
            switch v {
            case 0x1B: state = .escape
            case 0x9B: state = .csi
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F: state = .string
            case 0x0D:
                previousWasCR = true
                out.append(singleLine ? " " : "\n")
            case 0x0A, 0x2028, 0x2029:
                if wasCR { continue }                                     // CRLF counts once
                out.append(singleLine ? " " : "\n")
            case 0x09, 0x0B, 0x0C:
                out.append(" ")
            case 0x00..<0x20, 0x7F...0x9F:
                continue
            default:
                if isBidiControl(v) { continue }
                out.append(scalar)
            }
        }
        return String(out)
    }
}
