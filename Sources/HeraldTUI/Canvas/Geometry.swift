/// A size in terminal cells.
nonisolated public struct Size: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = max(0, width); self.height = max(0, height) }
}

/// A rectangle of cells; `x`,`y` is the top-left corner.
nonisolated public struct Rect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }
    public init(_ size: Size) { self.init(x: 0, y: 0, width: size.width, height: size.height) }
    /// No room at all, at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }
    public var size: Size { Size(width: width, height: height) }
    public var description: String { "(\(x),\(y) \(width)×\(height))" }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The overlap of two rectangles (empty when they do not overlap).
    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x), ny = max(y, other.y)
        let mx = min(maxX, other.maxX), my = min(maxY, other.maxY)
        return Rect(x: nx, y: ny, width: mx - nx, height: my - ny)
    }

    /// Shrunk by `n` cells on every side.
    public func inset(by n: Int) -> Rect { inset(top: n, left: n, bottom: n, right: n) }

    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// A rectangle of `size` centred in this one (clamped to fit).
    public func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width), ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }
}
