import Foundation

/// A colour as written in a theme: the terminal default, one of the 16 named colours, a 256-palette
/// index or an RGB value.
nonisolated public enum TerminalColor: Sendable, Hashable, CustomStringConvertible {
    case `default`
    case ansi(UInt8)        // 0–15
    case indexed(UInt8)     // 0–255
    case rgb(UInt8, UInt8, UInt8)

    public static let names: [String] = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
        "bright_black", "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan", "bright_white",
    ]
    private static let aliases: [String: UInt8] = ["gray": 8, "grey": 8, "bright_gray": 7, "bright_grey": 7]

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let value: String
        public var description: String {
            "invalid colour \"\(value)\" (use a name like \"blue\" or \"bright_red\", \"default\", a number 0-255, or \"#rrggbb\")"
        }
    }

    /// Parses "default", a colour name, "#rrggbb" or a decimal 0–255 given as text.
    public static func parse(_ raw: String) throws(ParseError) -> TerminalColor {
        let text = raw.lowercased().replacingOccurrences(of: "-", with: "_")
        if text == "default" || text == "none" { return .default }
        if let index = names.firstIndex(of: text) { return .ansi(UInt8(index)) }
        if let index = aliases[text] { return .ansi(index) }
        if text.hasPrefix("#"), text.count == 7, let value = UInt32(text.dropFirst(), radix: 16) {
            return .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
        }
        if let n = Int(text), (0...255).contains(n) { return .indexed(UInt8(n)) }
        throw ParseError(value: raw)
    }

    /// A palette index 0–255.
    public static func parse(index: Int) throws(ParseError) -> TerminalColor {
        guard (0...255).contains(index) else { throw ParseError(value: String(index)) }
        return .indexed(UInt8(index))
    }

    public var description: String {
        switch self {
        case .default: return "default"
        case .ansi(let i): return TerminalColor.names[Int(i)]
        case .indexed(let i): return String(i)
        case .rgb(let r, let g, let b):
            let hex = (Int(r) << 16) | (Int(g) << 8) | Int(b)
            let digits = String(hex, radix: 16)
            return "#" + String(repeating: "0", count: 6 - digits.count) + digits
        }
    }
}
