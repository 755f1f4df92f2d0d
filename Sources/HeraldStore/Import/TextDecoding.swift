import Foundation

/// Turns imported bytes into text: UTF-8 by default, a declared charset when there is one,
/// lossily (U+FFFD) when the bytes are not valid, never crashing.
enum TextDecoding {
    /// Decodes `bytes`; the flag tells whether anything had to be replaced.
    static func decode(_ bytes: some Collection<UInt8>, charset: String? = nil) -> (text: String, lossy: Bool) {
        if let charset, let encoding = encoding(named: charset), encoding != .utf8 {
            if let s = String(data: Data(bytes), encoding: encoding) { return (s, false) }
        }
        if !bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            // Decoding repairs invalid bytes with U+FFFD: an answer without one is the valid text,
            // found without the (much slower) validating pass.
            let s = String(decoding: bytes, as: UTF8.self)
            if !hasReplacementCharacter(s) { return (s, false) }
            if let valid = String(validating: bytes, as: UTF8.self) { return (valid, false) }
            return (s, true)
        }
        var array = Array(bytes)
        array.removeFirst(3)
        if let s = String(validating: array, as: UTF8.self) { return (s, false) }
        return (String(decoding: array, as: UTF8.self), true)
    }

    /// Whether `s` holds U+FFFD (EF BF BD in UTF-8).
    private static func hasReplacementCharacter(_ s: String) -> Bool {
        var utf8 = s.utf8.makeIterator()
        var state = 0
        while let b = utf8.next() {
            switch (state, b) {
            case (_, 0xEF): state = 1
            case (1, 0xBF): state = 2
            case (2, 0xBD): return true
            default: state = 0
            }
        }
        return false
    }

    static func encoding(named raw: String) -> String.Encoding? {
        switch raw.lowercased().replacingOccurrences(of: "_", with: "-") {
        case "utf-8", "utf8": return .utf8
        case "us-ascii", "ascii": return .ascii
        case "iso-8859-1", "latin1", "iso8859-1": return .isoLatin1
        case "iso-8859-2", "latin2", "iso8859-2": return .isoLatin2
        case "windows-1250", "cp1250": return .windowsCP1250
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1253", "cp1253": return .windowsCP1253
        case "windows-1254", "cp1254": return .windowsCP1254
        case "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        case "utf-16", "utf16": return .utf16
        default: return nil
        }
    }

    /// Decodes quoted-printable bytes (soft line breaks already joined or written as "=" at line ends).
    static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x3D {
                if i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                    out.append(h << 4 | l)
                    i += 3
                    continue
                }
                // "=" followed by a line break (soft break) or at the very end: drop it.
                if i + 1 < bytes.count, bytes[i + 1] == 0x0D || bytes[i + 1] == 0x0A {
                    i += 1
                    while i < bytes.count, bytes[i] == 0x0D || bytes[i] == 0x0A { i += 1 }
                    continue
                }
                if i == bytes.count - 1 { i += 1; continue }
            }
            out.append(b)
            i += 1
        }
        return out
    }
}
