import Foundation

/// Random identifiers and secrets (never derived from the clock).
enum Identifiers {
    static func hex(bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }

    static func uuid() -> String { UUID().uuidString.lowercased() }

    private static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")

    /// A short-link code: 8 unambiguous letters and digits.
    static func linkCode() -> String {
        var g = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &g)] })
    }

    /// Bytes of a hex string; nil when it is not hex.
    static func bytes(fromHex hex: String) -> [UInt8]? {
        let chars = Array(hex.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }
}
