import CNCurses
import Foundation

/// A terminal that could not be started.
nonisolated public struct TerminalError: Error, CustomStringConvertible {
    public let description: String
}

/// The real terminal, through ncursesw. Only the app loop's thread may call it.
public final class NcursesTerminal: Terminal {
    public private(set) var size: Size
    public var inputDescriptor: Int32? { STDIN_FILENO }
    /// The colour depth in use (what the terminal can really show of what was asked).
    public private(set) var depth: ColorDepth
    private var theme: Theme
    /// The frame on screen (nil: the next one is written whole).
    var previous: Canvas?
    /// The clusters joined by ZWJ on screen, by row then column: written again after every frame that
    /// touches their row, since ncurses may re-send its stand-in there to save a cursor move.
    private var joinedOnScreen: [Int: [Int: JoinedCluster]] = [:]
    /// Whether the links a frame marks go out as OSC 8 hyperlinks (`HyperlinkSetting.isEnabled`); off by default.
    public var hyperlinks = false
    /// The link spans of the frame on screen.
    private var linksOnScreen: [LinkSpan] = []
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    private var styleCache: [Style: (attrs: attr_t, pair: Int32)] = [:]
    private let screen: OpaquePointer
    private var stopped = false
    /// The paste being read (bracketed paste), kept across reads: a long paste arrives in several.
    var paste = PasteCollector()
    /// The codes `get_wch` returns for the paste markers (defined as keys at start, so ncurses matches them whole
    /// within its escape delay).
    private var pasteStartCode: Int32 = 0
    private var pasteEndCode: Int32 = 0

    private struct PairKey: Hashable { let fg: Int32; let bg: Int32 }

    /// Starts ncurses on the controlling terminal (stdin/stdout must be a terminal). `mouse`: clicks and the wheel
    /// reach Herald; false leaves the mouse to the terminal (selecting and copying text).
    public init(theme: Theme, mouse: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(description: "Herald needs a terminal: stdin and stdout must not be redirected.")
        }
        setlocale(LC_ALL, "")
        set_escdelay(25)
        guard let screen = herald_newterm() else {
            throw TerminalError(description: "cannot start the terminal (TERM=\(environment["TERM"] ?? "unset")); try TERM=xterm-256color")
        }
        self.screen = screen
        set_term(screen)
        raw(); noecho(); nonl()
        keypad(herald_stdscr(), true)
        nodelay(herald_stdscr(), true)
        intrflush(herald_stdscr(), false)
        curs_set(0)
        Self.captureMouse(mouse)
        let hasColor = has_colors()
        if hasColor { start_color(); use_default_colors() }
        let colors = hasColor ? Int(herald_colors()) : 0
        var wanted = ColorDepth.detect(environment: environment, terminfoColors: colors)
        // ncurses writes RGB only through a direct-colour terminfo entry (e.g. TERM=xterm-direct).
        if wanted == .truecolor && colors < 0x100_0000 { wanted = colors >= 256 ? .palette256 : .ansi16 }
        if wanted == .palette256 && colors < 256 { wanted = .ansi16 }
        if !hasColor { wanted = .none }
        depth = wanted
        self.theme = theme
        var rows: Int32 = 0, cols: Int32 = 0
        herald_getmaxyx(herald_stdscr(), &rows, &cols)
        size = Size(width: Int(cols), height: Int(rows))
        pasteStartCode = Self.defineKey(BracketedPaste.start, code: 0x1200)
        pasteEndCode = Self.defineKey(BracketedPaste.end, code: 0x1201)
        writeRaw(BracketedPaste.enable)
    }

    /// Makes ncurses return one code for `sequence` (the code it already has for it, or `code`).
    private static func defineKey(_ sequence: String, code: Int32) -> Int32 {
        let existing = key_defined(sequence)
        if existing > 0 { return existing }
        define_key(sequence, code)
        return code
    }

    isolated deinit { stop() }

    /// Gives the terminal back (endwin); safe to call twice. The shell gets its terminal without bracketed paste.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        writeRaw(BracketedPaste.disable)
        endwin()
        delscreen(screen)
    }

    /// Whether clicks and the wheel come to Herald (true) or stay with the terminal, for its selection (false).
    public func setMouse(_ on: Bool) { Self.captureMouse(on) }

    private static func captureMouse(_ on: Bool) {
        mouseinterval(0)
        mousemask(on ? herald_button1_pressed() | herald_button1_clicked() | herald_button3_pressed()
                  | herald_button3_clicked() | herald_button4_pressed() | herald_button5_pressed() : 0, nil)
    }

    public func setTheme(_ theme: Theme) {
        self.theme = theme
        styleCache = [:]
        previous = nil
    }

    public func refreshSize() -> Bool {
        var rows: Int32 = 0, cols: Int32 = 0
        if herald_winsize(STDOUT_FILENO, &rows, &cols) == 0, rows > 0, cols > 0,
           rows != herald_lines() || cols != herald_cols() {
            resizeterm(rows, cols)
        }
        herald_getmaxyx(herald_stdscr(), &rows, &cols)
        let new = Size(width: Int(cols), height: Int(rows))
        guard new != size else { return false }
        size = new
        previous = nil
        return true
    }

    public func readKeys() -> [Key] {
        var keys: [Key] = []
        if paste.isStale(at: Self.now()) { keys.append(paste.finish()) }
        var ch: wint_t = 0
        while true {
            if paste.isOpen {
                guard readPasteByte(into: &keys) else { break }
                continue
            }
            let result = herald_get_wch(&ch)
            if result == ERR { break }
            if result == herald_key_code_yes() {
                let code = Int32(ch)
                if code == pasteStartCode {
                    paste.begin(at: Self.now())
                } else if code == pasteEndCode {
                    // An end without a start (the start came while Herald was not reading): nothing to do.
                } else if code == herald_key_mouse() {
                    if let mouse = readMouse() { keys.append(.mouse(mouse)) }
                } else if code == herald_key_resize() {
                    _ = refreshSize()
                    keys.append(.resize)
                } else if let key = NcursesKeys.decode(functionKey: code) {
                    keys.append(key)
                }
                continue
            }
            if ch == 27 {
                var next: wint_t = 0
                let r = herald_get_wch(&next)
                if r == OK, let key = NcursesKeys.decode(character: UInt32(next)), case .char(let c) = key {
                    keys.append(.alt(c)); continue
                }
                if r == OK, next == 127 || next == 8 { keys.append(.alt("\u{7F}")); continue }
                if r != ERR { unget_wch(wchar_t(bitPattern: next)) }
                keys.append(.escape)
                continue
            }
            if let key = NcursesKeys.decode(character: UInt32(ch)) { keys.append(key) }
        }
        return keys
    }

    /// Reads one byte of an open paste, appending the paste to `keys` when it ends; false when nothing is waiting.
    /// Bytes (`wgetch`), not characters: `get_wch` swallows bytes that are not UTF-8, the collector replaces them.
    private func readPasteByte(into keys: inout [Key]) -> Bool {
        let code = wgetch(herald_stdscr())
        if code == ERR { return false }
        if code == pasteEndCode {
            keys.append(paste.finish())
        } else if code == herald_key_resize() {
            _ = refreshSize()
            keys.append(.resize)
        } else if (0...0xFF).contains(code), let finished = paste.feed(UInt8(code), at: Self.now()) {
            keys.append(finished)
        }
        // Any other key code is an escape sequence inside the pasted text: dropped, as every control sequence is.
        return true
    }

    private static func now() -> Double { ProcessInfo.processInfo.systemUptime }

    private func readMouse() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let x = Int(event.x), y = Int(event.y)
        if state & herald_button4_pressed() != 0 { return MouseEvent(.wheelUp, x: x, y: y) }
        if state & herald_button5_pressed() != 0 { return MouseEvent(.wheelDown, x: x, y: y) }
        if state & (herald_button1_pressed() | herald_button1_clicked()) != 0 { return MouseEvent(.click, x: x, y: y) }
        if state & (herald_button3_pressed() | herald_button3_clicked()) != 0 { return MouseEvent(.rightClick, x: x, y: y) }
        return nil
    }

    public func present(_ canvas: Canvas) {
        if previous == nil || previous?.size != canvas.size {
            clearok(herald_stdscr(), true)
            joinedOnScreen = [:]
        }
        let runs = FrameDiff.changes(from: previous, to: canvas)
        var text = [wchar_t](repeating: 0, count: Int(herald_ccharw_max()) + 1)
        for run in runs {
            for x in run.x {
                joinedOnScreen[run.y]?[x] = nil
                guard let cell = canvas.cell(x: x, y: run.y), !cell.isContinuation else { continue }
                let look = ncursesStyle(cell.style)
                if cell.character.unicodeScalars.count == 1 {
                    fill(String(cell.character).unicodeScalars[...], into: &text)
                    herald_put_cell(herald_stdscr(), Int32(run.y), Int32(x), text, look.attrs, look.pair)
                    continue
                }
                let (parts, joined) = JoinedCluster.ncursesCells(of: cell.character)
                var column = x
                for part in parts {
                    fill(part.text.unicodeScalars[...], into: &text)
                    herald_put_cell(herald_stdscr(), Int32(run.y), Int32(column), text, look.attrs, look.pair)
                    column += part.columns
                }
                if joined {
                    joinedOnScreen[run.y, default: [:]][x] = JoinedCluster(
                        y: run.y, x: x, text: String(cell.character), style: theme.resolve(cell.style, depth: depth))
                }
            }
        }
        previous = canvas
        wnoutrefresh(herald_stdscr())
        doupdate()
        let overlays = Set(runs.map(\.y)).sorted().flatMap { y in
            (joinedOnScreen[y] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
        }
        if !overlays.isEmpty { writeRaw(JoinedCluster.bytes(overlays, depth: depth)) }
        writeLinks(of: canvas, rowsWritten: Set(runs.map(\.y)))
    }

    /// Writes the frame's links again as OSC 8 hyperlinks over what ncurses wrote (ncurses' cells cannot hold them):
    /// those on a row ncurses just wrote (it may have written their cells plain), and those new since the last frame.
    private func writeLinks(of canvas: Canvas, rowsWritten: Set<Int>) {
        defer { linksOnScreen = hyperlinks ? canvas.links : [] }
        guard hyperlinks, !canvas.links.isEmpty else { return }
        let before = Set(linksOnScreen)
        let due = canvas.links.filter { rowsWritten.contains($0.y) || !before.contains($0) }
        guard !due.isEmpty else { return }
        let bytes = OSC8.bytes(due, canvas: canvas, theme: theme, depth: depth)
        if !bytes.isEmpty { writeRaw(bytes) }
    }

    /// Gets the person's attention the way `notification` says (the bell, OSC 9, OSC 777), between frames: the bytes
    /// go straight to the terminal, never into a cell. Call on the app loop's thread only.
    public func announce(_ notification: TerminalNotification, title: String, body: String) {
        writeRaw(notification.bytes(title: title, body: body))
    }

    /// Up to CCHARW_MAX code points of `text`, NUL-terminated; a longer piece keeps its first one.
    private func fill(_ text: Substring.UnicodeScalarView, into buffer: inout [wchar_t]) {
        let limit = buffer.count - 1
        var count = 0
        for scalar in text {
            guard count < limit else { count = 1; break }
            buffer[count] = wchar_t(bitPattern: scalar.value)
            count += 1
        }
        buffer[count] = 0
    }

    private func ncursesStyle(_ style: Style) -> (attrs: attr_t, pair: Int32) {
        if let cached = styleCache[style] { return cached }
        let resolved = theme.resolve(style, depth: depth)
        var attrs = attr_t(herald_a_normal())
        if resolved.attributes.contains(.bold) { attrs |= attr_t(herald_a_bold()) }
        if resolved.attributes.contains(.dim) { attrs |= attr_t(herald_a_dim()) }
        if resolved.attributes.contains(.italic) { attrs |= attr_t(herald_a_italic()) }
        if resolved.attributes.contains(.underline) { attrs |= attr_t(herald_a_underline()) }
        if resolved.attributes.contains(.reverse) { attrs |= attr_t(herald_a_reverse()) }
        let pair = depth == .none ? 0 : pairNumber(fg: colorNumber(resolved.fg), bg: colorNumber(resolved.bg))
        styleCache[style] = (attrs, pair)
        return (attrs, pair)
    }

    private func colorNumber(_ color: TerminalColor) -> Int32 {
        switch color {
        case .default: return -1
        case .ansi(let i):
            if depth == .truecolor && i >= 8 { let (r, g, b) = ColorDownsampler.rgb(ofIndex: Int(i)); return rgbNumber(r, g, b) }
            return Int32(i)
        case .indexed(let i):
            if depth == .truecolor { let (r, g, b) = ColorDownsampler.rgb(ofIndex: Int(i)); return rgbNumber(r, g, b) }
            return Int32(i)
        case .rgb(let r, let g, let b): return rgbNumber(Int(r), Int(g), Int(b))
        }
    }

    /// Direct-colour terminfo numbers colours as 0xRRGGBB (values below 8 are the ANSI ones).
    private func rgbNumber(_ r: Int, _ g: Int, _ b: Int) -> Int32 {
        let value = Int32(r << 16 | g << 8 | b)
        return value < 8 ? 0 : value
    }

    private func pairNumber(fg: Int32, bg: Int32) -> Int32 {
        if fg == -1 && bg == -1 { return 0 }
        let key = PairKey(fg: fg, bg: bg)
        if let pair = pairs[key] { return pair }
        guard nextPair < herald_color_pairs() else { return 0 }
        let pair = nextPair
        guard init_extended_pair(pair, fg, bg) == OK else { return 0 }
        nextPair += 1
        pairs[key] = pair
        return pair
    }
}
