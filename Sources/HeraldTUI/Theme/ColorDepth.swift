/// How many colours the terminal shows.
nonisolated public enum ColorDepth: Sendable, Hashable, Comparable {
    /// `NO_COLOR`: attributes only.
    case none
    case ansi16
    case palette256
    case truecolor

    /// Truecolor when `COLORTERM` says truecolor/24bit, else 256 when terminfo has ≥ 256 colours,
    /// else 16; `NO_COLOR` (set and non-empty) turns colours off.
    public static func detect(environment: [String: String], terminfoColors: Int) -> ColorDepth {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorterm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        if terminfoColors >= 256 { return .palette256 }
        if terminfoColors >= 8 { return .ansi16 }
        return terminfoColors > 0 ? .ansi16 : .none
    }
}

/// Converting colours down to what a terminal can show.
nonisolated public enum ColorDownsampler {
    /// The RGB values xterm uses for the 16 basic colours.
    static let ansiRGB: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The RGB value of a palette index.
    public static func rgb(ofIndex index: Int) -> (Int, Int, Int) {
        if index < 16 { return ansiRGB[max(0, index)] }
        if index >= 232 { let v = 8 + (index - 232) * 10; return (v, v, v) }
        let i = index - 16
        return (cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
    }

    /// The colour as the terminal of `depth` should be asked for it.
    public static func convert(_ color: TerminalColor, to depth: ColorDepth) -> TerminalColor {
        switch (color, depth) {
        case (_, .none): return .default
        case (.default, _), (.ansi, _), (_, .truecolor): return color
        case (.indexed(let i), .palette256): return i < 16 ? .ansi(i) : color
        case (.indexed(let i), .ansi16):
            if i < 16 { return .ansi(i) }
            let (r, g, b) = rgb(ofIndex: Int(i))
            return .ansi(nearest16(r, g, b))
        case (.rgb(let r, let g, let b), .palette256): return .indexed(nearest256(Int(r), Int(g), Int(b)))
        case (.rgb(let r, let g, let b), .ansi16): return .ansi(nearest16(Int(r), Int(g), Int(b)))
        }
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        // Weighted for the eye (red 2, green 4, blue 3).
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    /// The nearest of the 16 basic colours.
    public static func nearest16(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (i, c) in ansiRGB.enumerated() {
            let d = distance((r, g, b), c)
            if d < bestDistance { best = i; bestDistance = d }
        }
        return UInt8(best)
    }

    /// The nearest of the 240 colours of the xterm cube and grey ramp (16–255).
    public static func nearest256(_ r: Int, _ g: Int, _ b: Int) -> UInt8 {
        func cubeIndex(_ v: Int) -> Int { v < 48 ? 0 : (v < 115 ? 1 : (v - 35) / 40) }
        let ci = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (cubeLevels[ci.0], cubeLevels[ci.1], cubeLevels[ci.2])
        let cubeColor = 16 + 36 * ci.0 + 6 * ci.1 + ci.2
        let average = (r + g + b) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyLevel = 8 + greyIndex * 10
        let grey = (greyLevel, greyLevel, greyLevel)
        return distance((r, g, b), grey) < distance((r, g, b), cube) ? UInt8(232 + greyIndex) : UInt8(cubeColor)
    }
}
