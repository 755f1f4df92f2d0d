import HeraldCore

/// Bracketed paste (xterm's mode 2004): while it is on, the terminal wraps pasted text in `ESC [ 200 ~` … `ESC [ 201 ~`,
/// so a paste reaches Herald as one `.paste` key and never as keys that run commands.
nonisolated public enum BracketedPaste {
    /// Turns the mode on (written at start and when the terminal comes back from a program or a stop).
    public static let enable: [UInt8] = Array("\u{1B}[?2004h".utf8)
    /// Turns it off (written before the terminal is handed to a shell or an editor, and on exit).
    public static let disable: [UInt8] = Array("\u{1B}[?2004l".utf8)
    /// What opens and closes a paste.
    public static let start = "\u{1B}[200~"
    public static let end = "\u{1B}[201~"
    /// The most of one paste kept, in bytes; the rest is dropped (a paste is text for a field, not a file).
    public static let limit = 1 << 20
    /// A paste open this long with no byte arriving is closed as it stands: a terminal that lost the end marker must
    /// not swallow every key for ever.
    public static let staleAfter: Double = 2
}

/// Collects the bytes of one bracketed paste into one `.paste` key: bytes, not characters, so that invalid UTF-8 is
/// replaced (U+FFFD) rather than lost; at most `BracketedPaste.limit` of them; control characters and escape
/// sequences dropped, line breaks kept as `\n`.
nonisolated public struct PasteCollector: Sendable {
    public private(set) var isOpen = false
    /// True when the paste being collected went over the limit.
    public private(set) var truncated = false
    private var bytes: [UInt8] = []
    /// How many bytes of the end marker the last bytes matched (it may arrive as bytes when it came split).
    private var matched = 0
    /// When the last byte arrived (seconds on any monotonic clock).
    private var lastInput: Double = 0
    private static let endMarker = Array(BracketedPaste.end.utf8)

    public init() {}

    /// A paste starts (the terminal sent `ESC [ 200 ~`).
    public mutating func begin(at now: Double) {
        isOpen = true
        truncated = false
        bytes = []
        matched = 0
        lastInput = now
    }

    /// One byte of the paste; the finished paste when it completes the end marker.
    public mutating func feed(_ byte: UInt8, at now: Double) -> Key? {
        lastInput = now
        if byte == Self.endMarker[matched] {
            matched += 1
            if matched == Self.endMarker.count { return finish() }
            return nil
        }
        // A partial marker was text after all (the marker's ESC appears only at its start).
        for kept in Self.endMarker[..<matched] { store(kept) }
        matched = 0
        if byte == Self.endMarker[0] { matched = 1 } else { store(byte) }
        return nil
    }

    /// True when the paste has waited `BracketedPaste.staleAfter` seconds for a byte.
    public func isStale(at now: Double) -> Bool { isOpen && now - lastInput >= BracketedPaste.staleAfter }

    /// Ends the paste (the end marker arrived as a key, or the paste went stale): the text as one key.
    public mutating func finish() -> Key {
        for kept in Self.endMarker[..<matched] { store(kept) }
        var text = String(decoding: bytes, as: UTF8.self)
        if truncated, text.last == "\u{FFFD}" { text.removeLast() }      // a character the limit cut in two
        text = TerminalSafeText.sanitize(text, singleLine: false)
        isOpen = false
        bytes = []
        matched = 0
        return .paste(text)
    }

    /// Forgets a paste cut short by a hand-over of the terminal.
    public mutating func reset() {
        isOpen = false
        bytes = []
        matched = 0
    }

    private mutating func store(_ byte: UInt8) {
        guard bytes.count < BracketedPaste.limit else { truncated = true; return }
        bytes.append(byte)
    }
}
