import Glibc
@testable import HeraldCore
import Testing

/// `wcwidth(3)` from the C library (Swift's Glibc module does not export it).
@_silgen_name("wcwidth") private func libcWcwidth(_ character: Int32) -> Int32

/// The generated table checked against its oracle, the C library's own `wcwidth()` in a UTF-8 locale
/// (what ncurses and tmux place characters by), over every code point.
@Suite struct TerminalWidthTests {
    @Test func everyCodePointTakesTheColumnsWcwidthGivesIt() throws {
        let locale = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        defer { freelocale(locale) }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let expected = max(0, Int(libcWcwidth(Int32(bitPattern: value))))
            // wcwidth has no width for unassigned code points (-1); Herald gives them one column.
            let libcUnassigned = libcWcwidth(Int32(bitPattern: value)) < 0 && value >= 0xA0
            let got = TerminalWidth.of(scalar)
            if libcUnassigned ? got != 1 : got != expected {
                disagreements.append("U+\(String(value, radix: 16, uppercase: true)): \(got), wcwidth \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test func theCharacterAfterAJoinerTakesNoColumn() {
        #expect(TerminalWidth.of("👩‍👩‍👧") == 2)
        #expect(TerminalWidth.of("👨‍💻 Ana") == 6)
        #expect(TerminalWidth.of("a\u{200D}b") == 2)      // only a pictograph joins (one cluster with the one before)
    }
}
