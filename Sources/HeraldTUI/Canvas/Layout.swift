/// One part of a row or column split.
nonisolated public enum LayoutSize: Sendable, Hashable {
    /// Exactly this many cells (less when space runs out).
    case fixed(Int)
    /// A share of what the fixed parts leave, by weight.
    case flex(Int)
    /// A percentage of the whole.
    case percent(Int)
}

/// Splits rectangles into rows or columns by fixed, percentage and flexible sizes.
nonisolated public enum Layout {
    /// Rows from top to bottom, in the order of `sizes`.
    public static func rows(_ rect: Rect, _ sizes: [LayoutSize]) -> [Rect] {
        lengths(total: rect.height, sizes).reduce(into: (rects: [Rect](), at: rect.y)) { acc, length in
            acc.rects.append(Rect(x: rect.x, y: acc.at, width: rect.width, height: length))
            acc.at += length
        }.rects
    }

    /// Columns from left to right, in the order of `sizes`.
    public static func columns(_ rect: Rect, _ sizes: [LayoutSize]) -> [Rect] {
        lengths(total: rect.width, sizes).reduce(into: (rects: [Rect](), at: rect.x)) { acc, length in
            acc.rects.append(Rect(x: acc.at, y: rect.y, width: length, height: rect.height))
            acc.at += length
        }.rects
    }

    /// The lengths each size gets out of `total`; they never add up to more than `total`.
    public static func lengths(total: Int, _ sizes: [LayoutSize]) -> [Int] {
        var remaining = max(0, total)
        var result = Array(repeating: 0, count: sizes.count)
        for (i, size) in sizes.enumerated() {
            switch size {
            case .fixed(let n): result[i] = min(max(0, n), remaining)
            case .percent(let p): result[i] = min(max(0, total * p / 100), remaining)
            case .flex: continue
            }
            remaining -= result[i]
        }
        let weights = sizes.map { if case .flex(let w) = $0 { max(0, w) } else { 0 } }
        let totalWeight = weights.reduce(0, +)
        guard totalWeight > 0 else { return result }
        var given = 0
        var lastFlex = -1
        for (i, w) in weights.enumerated() where w > 0 {
            result[i] = remaining * w / totalWeight
            given += result[i]
            lastFlex = i
        }
        if lastFlex >= 0 { result[lastFlex] += remaining - given }   // rounding leftovers
        return result
    }
}
