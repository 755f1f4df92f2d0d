/// Aligned text columns for people, measuring East Asian wide characters as two cells.
struct OutputTable {
    var headers: [String]
    var maxWidths: [Int]
    var rows: [[String]] = []

    init(headers: [String], maxWidths: [Int]) {
        self.headers = headers
        self.maxWidths = maxWidths
    }

    mutating func add(_ row: [String]) { rows.append(row.map(Output.safe)) }

    func render() -> String {
        var widths = headers.map(Self.width)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = min(max(widths[i], Self.width(cell)), maxWidths[i])
            }
        }
        var out = ""
        for row in [headers] + rows {
            var line = ""
            for (i, cell) in row.enumerated() where i < widths.count {
                let cut = Self.truncate(cell, to: widths[i])
                line += cut
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - Self.width(cut) + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    static func cellWidth(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x20000...0x3FFFD).contains(v) {
            return 2
        }
        return 1
    }

    static func width(_ s: String) -> Int { s.unicodeScalars.reduce(0) { $0 + cellWidth($1) } }

    /// Cuts `s` to `width` cells, ending with "…" when cut.
    static func truncate(_ s: String, to width: Int) -> String {
        guard Self.width(s) > width else { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = Self.width(String(ch))
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }
}
