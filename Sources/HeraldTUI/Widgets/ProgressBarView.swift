/// One coloured part of a progress bar (e.g. delivered, pending, failed counts).
nonisolated public struct ProgressSegment: Sendable, Hashable {
    public var value: Double
    public var role: Role
    public init(_ value: Double, role: Role) { self.value = value; self.role = role }
}

/// A horizontal bar drawn with eighth-block characters, so fractions show to 1/8 of a cell. Whole cells of the
/// delivery states differ in shape as well as colour (invited █, failed ▓, pending ░), so a monochrome terminal
/// tells them apart too.
nonisolated public enum ProgressBarView {
    static let partialBlocks: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The glyph of a whole cell of `role`.
    static func fill(_ role: Role) -> String {
        switch role {
        case .statusPending: return "░"
        case .statusFailed: return "▓"
        default: return "█"
        }
    }

    /// Draws `segments` left to right in the one-line `rect`, scaled so `total` fills it
    /// (`total` defaults to the sum of the segments).
    public static func render(into canvas: inout Canvas, rect: Rect, segments: [ProgressSegment], total: Double? = nil) {
        guard rect.width > 0, rect.height > 0 else { return }
        let y = rect.y
        let sum = segments.reduce(0) { $0 + max(0, $1.value) }
        let whole = max(total ?? sum, sum)
        let eighths = rect.width * 8
        // Cumulative boundaries in eighths, rounded cumulatively so nothing drifts.
        var bounds: [(end: Int, role: Role)] = []
        var running = 0.0
        for segment in segments where segment.value > 0 {
            running += segment.value
            let end = whole > 0 ? Int((running / whole * Double(eighths)).rounded()) : 0
            bounds.append((min(end, eighths), segment.role))
        }
        func role(at eighth: Int) -> Role? { bounds.first { eighth < $0.end }?.role }

        for cell in 0..<rect.width {
            let start = cell * 8
            let left = role(at: start)
            let boundary = bounds.map(\.end).first { $0 > start && $0 < start + 8 }
            let x = rect.x + cell
            guard let left else {
                canvas.put(" ", x: x, y: y, style: Style(.progressEmpty))
                continue
            }
            guard let boundary else {
                canvas.put(fill(left), x: x, y: y, style: Style(left))
                continue
            }
            let right = role(at: boundary)
            let background: Paint = right.map { .foregroundOf($0) } ?? .backgroundOf(.progressEmpty)
            canvas.put(String(partialBlocks[boundary - start]), x: x, y: y, style: Style(left, background: background))
        }
    }
}
