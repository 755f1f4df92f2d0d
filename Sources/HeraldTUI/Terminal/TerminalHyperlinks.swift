/// Whether links on the screen are OSC 8 hyperlinks (`[ui] hyperlinks`): `on`, `off`, or `auto`, which turns them on
/// only where the terminal is known to support them.
nonisolated public enum HyperlinkSetting: String, Sendable, Hashable, CaseIterable {
    case auto, on, off

    /// Whether links are written as OSC 8 hyperlinks in this environment. Never with `NO_COLOR` set, `TERM=dumb` or no
    /// `TERM` (plain text is asked for); `on` otherwise always; `auto` only for terminals known to show them and not
    /// inside tmux or screen (which drop them unless set up to pass them on): iTerm2, WezTerm, Ghostty, kitty, foot,
    /// VS Code's terminal, Windows Terminal, GNOME Terminal and other VTE terminals (0.50 and later), Konsole (22.04
    /// and later).
    public func isEnabled(environment: [String: String]) -> Bool {
        let term = environment["TERM"] ?? ""
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if term.isEmpty || term == "dumb" { return false }
        switch self {
        case .off: return false
        case .on: return true
        case .auto:
            let program = environment["TERM_PROGRAM"] ?? ""
            if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") || program == "tmux" { return false }
            if ["iTerm.app", "WezTerm", "ghostty", "vscode"].contains(program) { return true }
            if term == "xterm-kitty" || term == "xterm-ghostty" || term.hasPrefix("foot") { return true }
            if environment["WT_SESSION"] != nil { return true }
            if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
            if let konsole = environment["KONSOLE_VERSION"].flatMap(Int.init), konsole >= 220400 { return true }
            return false
        }
    }
}

/// The OSC 8 sequences around a link's text: `ESC ] 8 ; ; URL ESC \` before, `ESC ] 8 ; ; ESC \` after.
nonisolated enum OSC8 {
    static func open(_ url: String) -> String { "\u{1B}]8;;\(url)\u{1B}\\" }
    static let close = "\u{1B}]8;;\u{1B}\\"

    /// The bytes that write `spans` of `canvas` again as hyperlinks, each at its place in its style, the cursor and
    /// attributes saved before and restored after (ncurses' idea of both stays true). A span whose cells no longer
    /// hold what it was marked on (something drew over it) is skipped; so is a target that is not a safe URL.
    static func bytes(_ spans: [LinkSpan], canvas: Canvas, theme: Theme, depth: ColorDepth) -> [UInt8] {
        var out = ""
        for span in spans {
            guard canvas.text(of: span) == span.text, let url = Canvas.linkTarget(span.url),
                  let first = canvas.cell(x: span.x, y: span.y) else { continue }
            out += "\u{1B}[\(span.y + 1);\(span.x + 1)H" + JoinedCluster.sgr(theme.resolve(first.style, depth: depth), depth: depth)
                + open(url) + span.text + close
        }
        guard !out.isEmpty else { return [] }
        return Array(("\u{1B}7" + out + "\u{1B}8").utf8)
    }
}
