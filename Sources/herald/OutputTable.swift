import HeraldCore

/// Aligned text columns for people, measuring each cell as the terminal does (`TerminalWidth`).
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

    static func width(_ s: String) -> Int { TerminalWidth.of(s) }

    /// Cuts `s` to `width` cells, ending with "…" when cut.
    static func truncate(_ s: String, to width: Int) -> String {
        guard Self.width(s) > width else { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = TerminalWidth.of(ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }
}
