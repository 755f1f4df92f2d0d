import CNCurses

/// Turns what `get_wch` returns into `Key`s.
nonisolated public enum NcursesKeys {
    /// A function-key code (`get_wch` returned KEY_CODE_YES), or nil for codes Herald ignores.
    public static func decode(functionKey code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case herald_key_resize(): return .resize
        case 0x222, 0x223: return .ctrlLeft      // kLFT5 on xterm-like terminfo
        case 0x231, 0x232: return .ctrlRight     // kRIT5
        default:
            for n in 1...24 where herald_key_f(Int32(n)) == code { return .function(n) }
            return nil
        }
    }

    /// An ordinary character code (not a function key).
    public static func decode(character code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 27: return .escape
        case 0: return .ctrl("@")
        case 1...26: return .ctrl(Character(Unicode.Scalar(code + 96)!))
        case 28...31: return .ctrl(Character(Unicode.Scalar(code + 64)!))
        case 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .char(Character(scalar))
        }
    }
}
