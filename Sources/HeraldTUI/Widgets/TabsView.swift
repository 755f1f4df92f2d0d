/// A row of tab titles with the selected one highlighted.
nonisolated public enum TabsView {
    /// Draws `titles` separated by a thin bar; returns each tab's rect (for mouse clicks).
    @discardableResult
    public static func render(into canvas: inout Canvas, rect: Rect, titles: [String], selected: Int) -> [Rect] {
        guard rect.height > 0, rect.width > 0 else { return [] }
        let line = Rect(x: rect.x, y: rect.y, width: rect.width, height: 1)
        canvas.fill(line, style: Style(.tabInactive))
        var x = rect.x
        var frames: [Rect] = []
        for (i, title) in titles.enumerated() {
            if i > 0 { x = canvas.put("│", x: x, y: rect.y, style: Style(.border), clip: line) }
            let label = " \(title) "
            let start = x
            x = canvas.put(label, x: x, y: rect.y, style: Style(i == selected ? .tabActive : .tabInactive), clip: line)
            frames.append(Rect(x: start, y: rect.y, width: max(0, min(x, line.maxX) - start), height: 1))
            if x >= line.maxX { break }
        }
        return frames
    }
}
