/// A cluster joined by ZWJ (👩‍👩‍👧) that the terminal draws as one glyph but ncurses, which keeps one
/// spacing character per cell, cannot hold: it is written straight to the terminal over ncurses'
/// stand-in, with the cursor and attributes saved and restored so ncurses' idea of both stays true.
nonisolated struct JoinedCluster {
    let y: Int
    let x: Int
    let text: String
    let style: ResolvedStyle

    /// What ncurses, which keeps one spacing character per cell, is given for `character`: a cluster
    /// such as मि goes out as its cells (the terminal joins them again); one joined by ZWJ is drawn by the
    /// terminal as one glyph, so ncurses gets its first part without the joiner as a stand-in, then spaces for
    /// the rest of the cluster's columns (👩🏽‍💻 takes 4), and `joined` says the whole is to be written over them.
    static func ncursesCells(of character: Character) -> (parts: [(text: String, columns: Int)], joined: Bool) {
        let cells = TextWidth.cells(of: character)
        let spacing = cells.pieces.filter { $0.columns > 0 }
        guard cells.joined, let first = spacing.first else { return (spacing, false) }
        var standIn = first.text.unicodeScalars[...]
        while standIn.last?.value == 0x200D { standIn = standIn.dropLast() }
        let rest = TextWidth.of(character) - first.columns       // the columns the canvas gave the whole
        return ([(String(standIn), first.columns)] + Array(repeating: (" ", 1), count: max(0, rest)), true)
    }

    /// The bytes that draw `clusters`: save cursor, then for each one a move, its colours and its text,
    /// then restore the cursor.
    static func bytes(_ clusters: [JoinedCluster], depth: ColorDepth) -> [UInt8] {
        var out = "\u{1B}7"
        for cluster in clusters {
            out += "\u{1B}[\(cluster.y + 1);\(cluster.x + 1)H" + sgr(cluster.style, depth: depth) + cluster.text
        }
        out += "\u{1B}8"
        return Array(out.utf8)
    }

    /// Select Graphic Rendition for `style`: attributes, then colours unless the terminal has none.
    static func sgr(_ style: ResolvedStyle, depth: ColorDepth) -> String {
        var codes = ["0"]
        let attributes = style.attributes
        if attributes.contains(.bold) { codes.append("1") }
        if attributes.contains(.dim) { codes.append("2") }
        if attributes.contains(.italic) { codes.append("3") }
        if attributes.contains(.underline) { codes.append("4") }
        if attributes.contains(.reverse) { codes.append("7") }
        if depth != .none {
            codes.append(color(style.fg, foreground: true))
            codes.append(color(style.bg, foreground: false))
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func color(_ color: TerminalColor, foreground: Bool) -> String {
        switch color {
        case .default: return foreground ? "39" : "49"
        case .ansi(let i) where i < 8: return String((foreground ? 30 : 40) + Int(i))
        case .ansi(let i): return String((foreground ? 90 : 100) + Int(i) - 8)
        case .indexed(let i): return (foreground ? "38;5;" : "48;5;") + String(i)
        case .rgb(let r, let g, let b): return (foreground ? "38;2;" : "48;2;") + "\(r);\(g);\(b)"
        }
    }
}
