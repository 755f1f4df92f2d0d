import Testing
@testable import HeraldServices

@Suite struct QRCodeTests {
    static let url = "https://hrld.example/i/Ab12Cd34" // 31 characters

    /// Checks the 7×7 finder pattern whose top-left module is at (row, column).
    func hasFinder(_ qr: QRCode, row: Int, column: Int) -> Bool {
        for r in 0..<7 {
            for c in 0..<7 {
                let ring = r == 0 || r == 6 || c == 0 || c == 6
                let core = (2...4).contains(r) && (2...4).contains(c)
                if qr.isDark(row: row + r, column: column + c) != (ring || core) { return false }
            }
        }
        return true
    }

    /// Reads half-block text back into module rows (true = the glyph draws that half).
    func unrender(_ lines: [String]) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in lines {
            var top: [Bool] = [], bottom: [Bool] = []
            for ch in line {
                top.append(ch == "█" || ch == "▀")
                bottom.append(ch == "█" || ch == "▄")
            }
            rows.append(top)
            rows.append(bottom)
        }
        return rows
    }

    @Test func a31CharacterURLAtLevelMIsA29By29CodeWithThreeFinders() throws {
        #expect(Self.url.count == 31)
        let qr = try QRCode(encoding: Self.url, errorCorrection: .medium)
        #expect(qr.size == 29)
        #expect(qr.version == 3)
        #expect(qr.matrix.count == 29 && qr.matrix.allSatisfy { $0.count == 29 })
        #expect(hasFinder(qr, row: 0, column: 0))
        #expect(hasFinder(qr, row: 0, column: 22))
        #expect(hasFinder(qr, row: 22, column: 0))
        #expect(!hasFinder(qr, row: 22, column: 22))
        // The separators around the finders are light.
        #expect((0..<8).allSatisfy { !qr.isDark(row: 7, column: $0) && !qr.isDark(row: $0, column: 7) })
    }

    @Test func renderingUsesTwoModuleRowsPerLineInsideAQuietZone() throws {
        let qr = try QRCode(encoding: Self.url)
        let lines = qr.textLines()
        #expect(lines.count == (29 + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == 33 })
        #expect(lines.allSatisfy { line in line.allSatisfy { " ▀▄█".contains($0) } })
        // Default: light modules are drawn, so the quiet zone is solid.
        #expect(lines[0] == String(repeating: "█", count: 33))
        let grid = unrender(lines)
        for r in 0..<33 {
            for c in 0..<33 {
                let light = !qr.isDark(row: r - 2, column: c - 2)
                #expect(grid[r][c] == light, "module \(r),\(c)")
            }
        }
        // The padding half-row below an odd total is blank.
        #expect(grid[33].allSatisfy { !$0 })
    }

    @Test func invertedRenderingDrawsTheDarkModules() throws {
        let qr = try QRCode(encoding: Self.url)
        let lines = qr.textLines(quietZone: 2, inverted: true)
        #expect(lines.count == 17)
        #expect(lines[0] == String(repeating: " ", count: 33))
        let grid = unrender(lines)
        for r in 0..<33 {
            for c in 0..<33 {
                #expect(grid[r][c] == qr.isDark(row: r - 2, column: c - 2))
            }
        }
        // The top-left finder's top edge: row 2 of the grid, columns 2...8 all dark.
        #expect((2...8).allSatisfy { grid[2][$0] })
    }

    @Test func quietZoneWidthIsHonoured() throws {
        let qr = try QRCode(encoding: Self.url)
        #expect(qr.textLines(quietZone: 4).count == (29 + 8 + 1) / 2)
        #expect(qr.textLines(quietZone: 4)[0].count == 37)
        #expect(qr.textLines(quietZone: 0)[0].count == 29)
    }

    @Test func higherCorrectionAndLongerTextGiveBiggerCodes() throws {
        let m = try QRCode(encoding: Self.url, errorCorrection: .medium)
        let h = try QRCode(encoding: Self.url, errorCorrection: .high)
        #expect(h.size > m.size)
        let nonLatin = try QRCode(encoding: "https://hrld.example/pozivnica?ime=Žužić&grad=Загреб")
        #expect(nonLatin.size >= 29 && (nonLatin.size - 17) % 4 == 0)
    }

    @Test func emptyAndOversizedTextAreRefused() {
        #expect(throws: QRCodeError.emptyText) { try QRCode(encoding: "") }
        let huge = String(repeating: "x", count: 5000)
        #expect(throws: QRCodeError.tooLong(byteCount: 5000)) { try QRCode(encoding: huge) }
    }
}
