/// A piece of a status bar.
nonisolated public struct StatusSegment: Sendable, Hashable {
    public var text: String
    public var style: Style
    public init(_ text: String, style: Style = Style(.statusBar)) { self.text = text; self.style = style }
}

/// A one-line bar with segments on the left and on the right; the left side wins when space is short.
nonisolated public enum StatusBarView {
    public static func render(into canvas: inout Canvas, rect: Rect, left: [StatusSegment], right: [StatusSegment] = []) {
        guard rect.height > 0, rect.width > 0 else { return }
        let line = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        canvas.fill(line, style: Style(.statusBar))
        var x = rect.x
        for segment in left {
            x = canvas.put(segment.text, x: x, y: rect.y, style: segment.style, clip: line)
        }
        let rightWidth = right.reduce(0) { $0 + TextWidth.of($1.text) }
        guard rightWidth > 0, x + 1 + rightWidth <= line.maxX else { return }
        var rx = line.maxX - rightWidth
        for segment in right { rx = canvas.put(segment.text, x: rx, y: rect.y, style: segment.style, clip: line) }
    }
}
