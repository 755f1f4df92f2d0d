import Foundation

/// Parsing and printing key names as written in config files and help: "j", "J", "down", "ctrl-d",
/// "alt-x", "space", "enter", "esc", "tab", "shift-tab", "f1", "pgdn", "?".
nonisolated public enum KeyName {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let name: String
        public var description: String {
            "unknown key name \"\(name)\" (use e.g. j, J, down, ctrl-d, alt-x, space, enter, esc, tab, shift-tab, f1, pgdn)"
        }
    }

    private static let named: [String: Key] = [
        "up": .up, "down": .down, "left": .left, "right": .right, "home": .home, "end": .end,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "insert": .insert, "ins": .insert, "delete": .delete, "del": .delete,
        "backspace": .backspace, "bs": .backspace, "enter": .enter, "return": .enter,
        "tab": .tab, "shift-tab": .backTab, "backtab": .backTab, "esc": .escape, "escape": .escape,
        "space": .space, "ctrl-left": .ctrlLeft, "ctrl-right": .ctrlRight,
    ]

    /// Parses a key name (case matters for single letters: "i" and "I" differ; "shift-i" means "I").
    public static func parse(_ raw: String) throws(ParseError) -> Key {
        let name = raw.trimmingCharacters(in: .whitespaces)
        if name.count == 1, let c = name.first, TextWidth.of(c) > 0, !c.isWhitespace { return .char(c) }
        let lower = name.lowercased()
        if let key = named[lower] { return key }
        if lower.count >= 2, lower.first == "f", let n = Int(lower.dropFirst()), (1...24).contains(n) { return .function(n) }
        for (prefix, make) in [("ctrl-", { Key.ctrl($0) }), ("c-", { Key.ctrl($0) }),
                               ("alt-", { Key.alt($0) }), ("m-", { Key.alt($0) }), ("meta-", { Key.alt($0) })] as [(String, (Character) -> Key)] {
            if lower.hasPrefix(prefix) {
                let rest = name.dropFirst(prefix.count)
                guard rest.count == 1, let c = rest.first else { break }
                return make(prefix.hasPrefix("c") ? Character(c.lowercased()) : c)
            }
        }
        if lower.hasPrefix("shift-") {
            let rest = name.dropFirst(6)
            if rest.count == 1, let c = rest.first, c.isLetter { return .char(Character(c.uppercased())) }
        }
        throw ParseError(name: raw)
    }

    /// The canonical name of a key (what `parse` reads back).
    public static func name(of key: Key) -> String {
        switch key {
        case .char(" "): return "space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "ctrl-\(c)"
        case .alt(let c): return "alt-\(c)"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .insert: return "insert"
        case .delete: return "delete"
        case .ctrlLeft: return "ctrl-left"
        case .ctrlRight: return "ctrl-right"
        case .backspace: return "backspace"
        case .enter: return "enter"
        case .tab: return "tab"
        case .backTab: return "shift-tab"
        case .escape: return "esc"
        case .function(let n): return "f\(n)"
        case .paste: return "paste"
        case .mouse: return "mouse"
        case .resize: return "resize"
        }
    }

    /// A short label for help and hints: arrows as symbols, otherwise the name.
    public static func label(of key: Key) -> String {
        switch key {
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        default: return name(of: key)
        }
    }
}
