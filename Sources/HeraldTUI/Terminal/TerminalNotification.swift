/// How a terminal is asked to get the person's attention: a desktop notification through OSC 9 (iTerm2's, also
/// understood by WezTerm, kitty, Ghostty) or OSC 777 (`notify`: urxvt's extension, foot, WezTerm, Ghostty), else the
/// bell, which every terminal rings or flashes (and tmux passes on as its window's bell).
nonisolated public enum TerminalNotification: String, Sendable, Hashable, CaseIterable {
    case osc9
    case osc777
    case bell

    /// The longest title and body sent (a desktop notification shows a line or two).
    static let titleLimit = 80
    static let bodyLimit = 240

    /// What the terminal Herald runs in understands, judged conservatively from its environment: OSC 9 for iTerm2,
    /// WezTerm, Ghostty and kitty; OSC 777 for foot and rxvt-unicode; the bell everywhere else — inside tmux or screen
    /// too (they do not pass unknown OSC sequences on), and on a terminal said to be dumb.
    public static func detect(environment: [String: String]) -> TerminalNotification {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") || program == "tmux" { return .bell }
        if term.isEmpty || term == "dumb" { return .bell }
        if ["iTerm.app", "WezTerm", "ghostty"].contains(program) || term == "xterm-kitty" || term == "xterm-ghostty"
            || environment["KITTY_WINDOW_ID"] != nil || environment["WEZTERM_EXECUTABLE"] != nil {
            return .osc9
        }
        if term.hasPrefix("foot") || term.hasPrefix("rxvt-unicode") { return .osc777 }
        return .bell
    }

    /// The bytes that give the notice: no control character of `title` or `body` reaches the terminal (they are
    /// replaced by spaces), nor a `;` in OSC 777's title (it separates the fields); both are cut to a bounded length.
    public func bytes(title: String, body: String) -> [UInt8] {
        let title = Self.clean(title, limit: Self.titleLimit)
        let body = Self.clean(body, limit: Self.bodyLimit)
        switch self {
        case .bell:
            return [0x07]
        case .osc9:
            let text = body.isEmpty ? title : "\(title): \(body)"
            return Array("\u{1B}]9;\(text)\u{07}".utf8)
        case .osc777:
            return Array("\u{1B}]777;notify;\(title.replacingOccurrences(of: ";", with: ","));\(body)\u{07}".utf8)
        }
    }

    /// `text` on one line: every control character (C0, DEL, C1) a space, at most `limit` characters.
    static func clean(_ text: String, limit: Int) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if out.unicodeScalars.count >= limit { break }
            let v = scalar.value
            let control = v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v)
                || (0x2028...0x2029).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            out.unicodeScalars.append(control ? " " : scalar)
        }
        return out.trimmingCharacters(in: .whitespaces)
    }
}
